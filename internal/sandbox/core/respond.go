package core

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Error is an error the API reports to its caller with core's error body.
type Error struct {
	Status      int
	Code        string
	Description string
}

func (e *Error) Error() string {
	return e.Code + ": " + e.Description
}

// BadRequest is a 400 invalid_request.
func BadRequest(format string, args ...any) *Error {
	return &Error{http.StatusBadRequest, unikorn.ErrorInvalidRequest, fmt.Sprintf(format, args...)}
}

// Forbidden is a 403.
func Forbidden(format string, args ...any) *Error {
	return &Error{http.StatusForbidden, unikorn.ErrorForbidden, fmt.Sprintf(format, args...)}
}

// Unprocessable is a 422.
func Unprocessable(format string, args ...any) *Error {
	return &Error{http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent, fmt.Sprintf(format, args...)}
}

// NotFound is the 404 of an object that does not exist, or may not be told to exist.
func NotFound() *Error {
	return &Error{http.StatusNotFound, unikorn.ErrorNotFound, "resource not found"}
}

// ConflictWith is a 409 in the words given.
func ConflictWith(format string, args ...any) *Error {
	return &Error{http.StatusConflict, unikorn.ErrorConflict, fmt.Sprintf(format, args...)}
}

// Conflict is the 409 of an object that exists already.
func Conflict() *Error {
	return &Error{http.StatusConflict, unikorn.ErrorConflict, "the requested resource already exists"}
}

// ServerError is core's 500.
func ServerError() *Error {
	return &Error{http.StatusInternalServerError, unikorn.ErrorServerError, "an internal error has occurred, please contact support"}
}

// RBACError is the 403 a caller gets for an organization or project it is not a member
// of (scope "organization" or "project"), in identity's words (uni-identity pkg/rbac).
func RBACError(endpoint, operation, scope string) *Error {
	return Forbidden("operation is not allowed by rbac: operation '%s' on endpoint '%s' — %s is not in this principal's accessible set",
		operation, endpoint, scope)
}

// NotPermitted is identity's 403 for a principal in scope whose roles do not grant the
// operation.
func NotPermitted(endpoint, operation string) *Error {
	return Forbidden("operation is not allowed by rbac: operation '%s' on endpoint '%s' is not permitted", operation, endpoint)
}

// ErrorForStatus is the standard error a fault rule answers with: the code the core
// error enum assigns to the status and that code's usual description.
func ErrorForStatus(status int) *Error {
	switch status {
	case http.StatusUnauthorized:
		return &Error{status, unikorn.ErrorAccessDenied, "authentication failed"}
	case http.StatusForbidden:
		return Forbidden("user credentials do not have the required privileges")
	case http.StatusNotFound:
		return NotFound()
	case http.StatusMethodNotAllowed:
		return &Error{status, unikorn.ErrorMethodNotAllowed, "method not allowed"}
	case http.StatusConflict:
		return Conflict()
	case http.StatusRequestEntityTooLarge:
		return &Error{status, unikorn.ErrorRequestEntityTooLarge, "request body too large"}
	case http.StatusUnsupportedMediaType:
		return &Error{status, unikorn.ErrorUnsupportedMediaType, "unsupported media type"}
	case http.StatusUnprocessableEntity:
		return Unprocessable("the request could not be processed")
	}

	if status >= http.StatusInternalServerError {
		e := ServerError()
		e.Status = status

		return e
	}

	return &Error{status, unikorn.ErrorInvalidRequest, "request invalid"}
}

// IsNotFound reports whether err is a 404.
func IsNotFound(err error) bool {
	var apiErr *Error

	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound
}

// Reply is what an API handler produces: it is rendered to bytes while the world is
// still locked, so no response ever aliases state that a later request changes.
type Reply struct {
	Status int
	// Body is encoded as JSON; nil: no body.
	Body         any
	CacheControl string
}

// OK is 200 with body.
func OK(body any) *Reply {
	return &Reply{Status: http.StatusOK, Body: body}
}

// Created is 201 with body.
func Created(body any) *Reply {
	return &Reply{Status: http.StatusCreated, Body: body}
}

// Accepted is 202; body may be nil for the verbs whose contract has no response body.
func Accepted(body any) *Reply {
	return &Reply{Status: http.StatusAccepted, Body: body}
}

// NoContent is 204.
func NoContent() *Reply {
	return &Reply{Status: http.StatusNoContent}
}

// Uncacheable marks an answer a handler sets "no-cache" on.
func Uncacheable(rep *Reply) *Reply {
	rep.CacheControl = "no-cache"

	return rep
}

// CatalogueCacheControl is what region sends with flavor and image catalogues: they
// change rarely, and only for one organization.
const CatalogueCacheControl = "max-age=86400, private"

// WriteJSON writes an already encoded body.
func WriteJSON(w http.ResponseWriter, status int, cacheControl string, body []byte) {
	if body != nil {
		w.Header().Set("Content-Type", "application/json")
	}

	if cacheControl != "" {
		w.Header().Set("Cache-Control", cacheControl)
	}

	w.WriteHeader(status)

	if body != nil {
		_, _ = w.Write(body)
	}
}

// WriteError writes the core error body that every non-2xx response carries.
func WriteError(w http.ResponseWriter, err error) {
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		apiErr = ServerError()
	}

	body, _ := json.Marshal(unikorn.ErrorBody{
		Error:            apiErr.Code,
		ErrorDescription: apiErr.Description,
		TraceID:          NewTraceID(),
	})

	WriteJSON(w, apiErr.Status, "no-cache", append(body, '\n'))
}

// NewTraceID is the trace every error body of core carries.
func NewTraceID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)

	return hex.EncodeToString(b)
}

// maxBodyBytes bounds request bodies; real bodies are a few kilobytes.
const maxBodyBytes = 1 << 20

// DecodeBody reads a JSON request body into dst. Like the OpenAPI validator that runs
// before every real handler, it first checks that each required member is present and
// not null. A required path is dotted ("spec.networkId"). A segment ending in "?" is an
// optional object whose members are required only when it is present
// ("spec.reservations?.prefixLength"); one ending in "[]" is an optional array whose
// every element needs the rest of the path ("spec.rules[].protocol").
func DecodeBody(r *http.Request, dst any, required ...string) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mediaType, _, err := mime.ParseMediaType(ct); err != nil || mediaType != "application/json" {
			return &Error{http.StatusUnsupportedMediaType, unikorn.ErrorUnsupportedMediaType, fmt.Sprintf("unsupported content type %q", ct)}
		}
	}

	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &Error{http.StatusRequestEntityTooLarge, unikorn.ErrorRequestEntityTooLarge, "request body too large"}
		}

		return BadRequest("request body could not be read: %v", err)
	}

	if len(bytes.TrimSpace(data)) == 0 {
		return BadRequest("request body has an error: value is required but missing")
	}

	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return BadRequest("request body has an error: failed to decode request body: %v", err)
	}

	for _, path := range required {
		if missing := missingMember(generic, strings.Split(path, "."), ""); missing != "" {
			return MissingMember(missing)
		}
	}

	if err := json.Unmarshal(data, dst); err != nil {
		return BadRequest("request body has an error: doesn't match schema: %v", err)
	}

	return nil
}

// missingMember returns the JSON pointer of the first required member absent from
// value along path, or "" when every one is present.
func missingMember(value any, path []string, pointer string) string {
	if len(path) == 0 {
		return ""
	}

	segment := path[0]
	each := strings.HasSuffix(segment, "[]")
	optional := each || strings.HasSuffix(segment, "?")
	segment = strings.TrimSuffix(strings.TrimSuffix(segment, "[]"), "?")

	object, isObject := value.(map[string]any)
	if !isObject {
		// A wrong type is reported by the typed decode that follows.
		return ""
	}

	pointer += "/" + segment

	member, present := object[segment]
	if !present || member == nil {
		if optional {
			return ""
		}

		return pointer
	}

	if !each {
		return missingMember(member, path[1:], pointer)
	}

	elements, _ := member.([]any)
	for i, element := range elements {
		if missing := missingMember(element, path[1:], fmt.Sprintf("%s/%d", pointer, i)); missing != "" {
			return missing
		}
	}

	return ""
}

// MissingMember is the OpenAPI validator's answer to a body that lacks a required
// member, at the JSON pointer given.
func MissingMember(pointer string) *Error {
	return BadRequest("request body has an error: doesn't match schema: Error at %q: property %q is missing", pointer, lastSegment(pointer))
}

func lastSegment(pointer string) string {
	return pointer[strings.LastIndex(pointer, "/")+1:]
}

var (
	// labelValuePattern is core `kubernetesLabelValue`, the rule for every resource name.
	labelValuePattern = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$`)
	// uuidPattern is the OpenAPI `format: uuid` check.
	uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// IsUUID reports whether value has the form OpenAPI's `format: uuid` asks for.
func IsUUID(value string) bool {
	return uuidPattern.MatchString(value)
}

// ValidateWriteMetadata checks core `resourceWriteMetadata`.
func ValidateWriteMetadata(metadata unikorn.WriteMetadata) error {
	if !labelValuePattern.MatchString(metadata.Name) {
		return BadRequest("request body has an error: doesn't match schema: Error at \"/metadata/name\": string doesn't match the regular expression %q", labelValuePattern.String())
	}

	return nil
}

// ValidateUUID checks a body member declared `format: uuid`.
func ValidateUUID(pointer, value string) error {
	if !IsUUID(value) {
		return BadRequest("request body has an error: doesn't match schema: Error at %q: string doesn't match the format \"uuid\"", pointer)
	}

	return nil
}

// writeMetadataRequired is the required part of core `resourceWriteMetadata`, the
// first member of every create and update body.
var writeMetadataRequired = []string{"metadata", "metadata.name", "metadata.tags[].name", "metadata.tags[].value"}

// RequiredWith is the required members of a body that begins with core's
// `resourceWriteMetadata`, and then extra.
func RequiredWith(extra ...string) []string {
	return append(append([]string{}, writeMetadataRequired...), extra...)
}

// NonNil is ids, or an empty list for none: the services write empty lists, not null.
func NonNil(ids []string) []string {
	if ids == nil {
		return []string{}
	}

	return ids
}
