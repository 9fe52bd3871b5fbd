package cloud

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// Class is what kind of failure an error is, as every family's diagnostics read it:
// Unikorn answers 403 for RBAC, quota and "in use" alike, and only the wire client
// has the body that tells them apart (see unikorn.Class, whose classes these are).
type Class int

// The classes of Failure.
const (
	// ClassOther is neither an answer of the service nor a failure of the connection,
	// or an answer of a status no other class holds: its own words say what it is.
	ClassOther Class = iota
	// ClassUnreachable is a request that got no answer because the service could not
	// be reached.
	ClassUnreachable
	// ClassDropped is a connection that broke before a whole answer arrived.
	ClassDropped
	// ClassTimeout is a request that got no answer in time.
	ClassTimeout
	// ClassUnconfigured is a call the client cannot make: it lacks the endpoint.
	ClassUnconfigured
	// ClassUnauthorized is a 401: the token was not accepted.
	ClassUnauthorized
	// ClassRBAC is a 403 that says neither quota nor in use: the token's principal may
	// not do the operation.
	ClassRBAC
	// ClassQuota is a 403 whose body says a quota would be exceeded.
	ClassQuota
	// ClassInUse is a refused delete of an object something still uses.
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

// classes are the wire client's classes in the façade's terms.
var classes = map[unikorn.Class]Class{
	unikorn.ClassOther: ClassOther, unikorn.ClassUnreachable: ClassUnreachable, unikorn.ClassDropped: ClassDropped,
	unikorn.ClassTimeout: ClassTimeout, unikorn.ClassUnconfigured: ClassUnconfigured,
	unikorn.ClassUnauthorized: ClassUnauthorized, unikorn.ClassRBAC: ClassRBAC, unikorn.ClassQuota: ClassQuota,
	unikorn.ClassInUse: ClassInUse, unikorn.ClassNotFound: ClassNotFound, unikorn.ClassConflict: ClassConflict,
	unikorn.ClassValidation: ClassValidation, unikorn.ClassOverloaded: ClassOverloaded,
}

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
	// Why is the RBAC refusal's reason after the endpoint, or a quota refusal's whole
	// description.
	Why string
	// Quota is the quota kind a quota refusal names ("networks"), empty when it names none.
	Quota string
}

// failureFromWire is the wire client's classification in the façade's terms.
func failureFromWire(in unikorn.Failure) Failure {
	return Failure{
		Class: classes[in.Class], Status: in.Status, Method: in.Method, Path: in.Path,
		Operation: in.Operation, Endpoint: in.Endpoint, Why: in.Why, Quota: in.Quota,
	}
}

// Classify says what kind of failure err is, from the status and body of Unikorn's
// answer, or from the connection when there was none: only a failure of the
// connection is ClassUnreachable, and only a 403 whose body says quota is ClassQuota.
func Classify(err error) Failure { return failureFromWire(unikorn.Classify(err)) }

// IsQuotaRefusal reports whether err is a refusal because a quota would be exceeded.
func IsQuotaRefusal(err error) bool { return Classify(err).Class == ClassQuota }
