package unikorn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"
)

// Class is what kind of failure an error of the API client is. Unikorn answers 403 for
// a refusal by RBAC, for a quota that would be exceeded and for an object still in
// use, and only the body tells them apart; and an error without an HTTP answer is a
// failure to reach the service only when it came from the connection.
type Class int

const (
	// ClassOther is an error that is neither an answer of the service nor a failure
	// of the connection (a condition the caller found, a body that could not be
	// decoded), or an answer of a status no other class holds: its own words say what
	// it is.
	ClassOther Class = iota
	// ClassUnreachable is a request that got no answer because the service could not
	// be reached: a refused connection, a name that does not resolve, a TLS failure.
	ClassUnreachable
	// ClassDropped is a connection that broke before a whole answer arrived: the
	// request reached something, which closed it.
	ClassDropped
	// ClassTimeout is a request that got no answer in time.
	ClassTimeout
	// ClassUnconfigured is a call the client cannot make: it lacks the endpoint.
	ClassUnconfigured
	// ClassUnauthorized is a 401: the token was not accepted.
	ClassUnauthorized
	// ClassRBAC is a 403 that says neither quota nor in use: the token's principal
	// may not do the operation (identity's "operation is not allowed by rbac", a
	// scope the token is not authorized for, a role it may not grant).
	ClassRBAC
	// ClassQuota is a 403 whose body says a quota would be exceeded.
	ClassQuota
	// ClassInUse is a refused delete of an object something still uses (403 "is in
	// use and cannot be deleted").
	ClassInUse
	// ClassNotFound is a 404.
	ClassNotFound
	// ClassConflict is a 409: a name taken, or an optimistic lock lost.
	ClassConflict
	// ClassValidation is a 400 or a 422: the service refused the values it was sent.
	ClassValidation
	// ClassOverloaded is a 429 or a 5xx: the service is overloaded or failing.
	ClassOverloaded
)

var classNames = map[Class]string{
	ClassOther: "other", ClassUnreachable: "unreachable", ClassDropped: "dropped", ClassTimeout: "timeout",
	ClassUnconfigured: "unconfigured", ClassUnauthorized: "unauthorized", ClassRBAC: "rbac", ClassQuota: "quota",
	ClassInUse: "in use", ClassNotFound: "not found", ClassConflict: "conflict", ClassValidation: "validation",
	ClassOverloaded: "overloaded",
}

func (c Class) String() string { return classNames[c] }

// Failure is what Classify learns of an error.
type Failure struct {
	Class Class
	// Status is the HTTP status of an answer, 0 for none.
	Status int
	// Method and Path name the request, when the error is about one.
	Method, Path string
	// Operation and Endpoint are what an RBAC refusal names ("create",
	// "region:networks:v2"), empty when its body does not say.
	Operation, Endpoint string
	// Why is the RBAC refusal's reason after the endpoint ("project is not in this
	// principal's accessible set"), or a quota refusal's whole description.
	Why string
	// Quota is the quota kind a quota refusal names ("networks"), empty when it names none.
	Quota string
}

var (
	// rbacRefusal is identity's RBAC wording (uni-identity pkg/rbac), which region and
	// compute use too: "operation is not allowed by rbac: operation 'create' on
	// endpoint 'region:networks:v2' — project is not in this principal's accessible set".
	rbacRefusal = regexp.MustCompile(`operation '([^']*)' on endpoint '([^']*)'\s*(?:—|-)?\s*(.*)$`)
	// quotaRefusal is identity's allocation check (uni-identity handler/common):
	// "total networks allocation of 2 would exceed quota limit of 1".
	quotaRefusal = regexp.MustCompile(`total (\S+) allocation of .* would exceed quota`)
)

// Classify says what kind of failure err is, from the HTTP status and the body of an
// answer, or from the connection's error when there was none.
func Classify(err error) Failure {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return classifyAnswer(apiErr)
	}

	var connErr *connectionError

	switch {
	case err == nil:
		return Failure{}
	case IsUnconfigured(err):
		return Failure{Class: ClassUnconfigured}
	case errors.As(err, &connErr):
		return Failure{Class: connErr.class(), Method: connErr.method, Path: connErr.path}
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		// A wait or a caller's deadline that ended before the request was answered.
		return Failure{Class: ClassTimeout}
	}

	return Failure{Class: ClassOther}
}

func classifyAnswer(e *APIError) Failure {
	f := Failure{Status: e.StatusCode, Method: e.Method, Path: e.Path}
	description := e.Description

	switch status := e.StatusCode; {
	case status == http.StatusUnauthorized:
		f.Class = ClassUnauthorized
	case status == http.StatusForbidden && strings.Contains(strings.ToLower(description), "quota"):
		f.Class, f.Why = ClassQuota, description
		if m := quotaRefusal.FindStringSubmatch(description); m != nil {
			f.Quota = m[1]
		}
	case status == http.StatusForbidden && strings.Contains(description, "in use"):
		f.Class = ClassInUse
	case status == http.StatusForbidden:
		f.Class = ClassRBAC
		if m := rbacRefusal.FindStringSubmatch(description); m != nil {
			f.Operation, f.Endpoint, f.Why = m[1], m[2], strings.TrimSpace(m[3])
		}
	case status == http.StatusNotFound:
		f.Class = ClassNotFound
	case status == http.StatusConflict:
		f.Class = ClassConflict
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		f.Class = ClassValidation
	case status == http.StatusTooManyRequests || status >= http.StatusInternalServerError:
		f.Class = ClassOverloaded
	default:
		f.Class = ClassOther
	}

	return f
}

// class tells a service that could not be reached from a connection that broke and
// from a request that ran out of time.
func (e *connectionError) class() Class {
	var netErr net.Error

	switch {
	case e.timeout > 0, errors.Is(e.err, context.DeadlineExceeded), errors.Is(e.err, context.Canceled),
		errors.As(e.err, &netErr) && netErr.Timeout():
		return ClassTimeout
	case dropped(e.err):
		return ClassDropped
	}

	return ClassUnreachable
}

// dropped reports a connection that was open and broke; a refused one never opened.
func dropped(err error) bool {
	if isTLS(err) {
		return false
	}

	for _, target := range []error{io.EOF, io.ErrUnexpectedEOF, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE} {
		if errors.Is(err, target) {
			return true
		}
	}

	return false
}

func isTLS(err error) bool {
	var (
		record    tls.RecordHeaderError
		alert     tls.AlertError
		verify    *tls.CertificateVerificationError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
	)

	return errors.As(err, &record) || errors.As(err, &alert) || errors.As(err, &verify) ||
		errors.As(err, &authority) || errors.As(err, &hostname) || errors.As(err, &invalid)
}
