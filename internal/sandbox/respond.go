package sandbox

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

// apiError is an error the API reports to its caller with the core error body.
type apiError struct {
	status      int
	code        string
	description string
}

func (e *apiError) Error() string {
	return e.code + ": " + e.description
}

func errBadRequest(format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, unikorn.ErrorInvalidRequest, fmt.Sprintf(format, args...)}
}

func errForbidden(format string, args ...any) *apiError {
	return &apiError{http.StatusForbidden, unikorn.ErrorForbidden, fmt.Sprintf(format, args...)}
}

func errUnprocessable(format string, args ...any) *apiError {
	return &apiError{http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent, fmt.Sprintf(format, args...)}
}

func errNotFound() *apiError {
	return &apiError{http.StatusNotFound, unikorn.ErrorNotFound, "resource not found"}
}

func errConflictWith(format string, args ...any) *apiError {
	return &apiError{http.StatusConflict, unikorn.ErrorConflict, fmt.Sprintf(format, args...)}
}

func errConflict() *apiError {
	return &apiError{http.StatusConflict, unikorn.ErrorConflict, "the requested resource already exists"}
}

func errServer() *apiError {
	return &apiError{http.StatusInternalServerError, unikorn.ErrorServerError, "an internal error has occurred, please contact support"}
}

// errRBAC is the 403 a caller gets for an organization or project it is not a member
// of (scope "organization" or "project"), in identity's words (uni-identity pkg/rbac).
func errRBAC(endpoint, operation, scope string) *apiError {
	return errForbidden("operation is not allowed by rbac: operation '%s' on endpoint '%s' — %s is not in this principal's accessible set",
		operation, endpoint, scope)
}

// errNotPermitted is identity's 403 for a principal in scope whose roles do not grant
// the operation.
func errNotPermitted(endpoint, operation string) *apiError {
	return errForbidden("operation is not allowed by rbac: operation '%s' on endpoint '%s' is not permitted", operation, endpoint)
}

// errorForStatus is the standard error a fault rule answers with: the code the core
// error enum assigns to the status and that code's usual description.
func errorForStatus(status int) *apiError {
	switch status {
	case http.StatusUnauthorized:
		return &apiError{status, unikorn.ErrorAccessDenied, "authentication failed"}
	case http.StatusForbidden:
		return errForbidden("user credentials do not have the required privileges")
	case http.StatusNotFound:
		return errNotFound()
	case http.StatusMethodNotAllowed:
		return &apiError{status, unikorn.ErrorMethodNotAllowed, "method not allowed"}
	case http.StatusConflict:
		return errConflict()
	case http.StatusRequestEntityTooLarge:
		return &apiError{status, unikorn.ErrorRequestEntityTooLarge, "request body too large"}
	case http.StatusUnsupportedMediaType:
		return &apiError{status, unikorn.ErrorUnsupportedMediaType, "unsupported media type"}
	case http.StatusUnprocessableEntity:
		return errUnprocessable("the request could not be processed")
	}

	if status >= http.StatusInternalServerError {
		e := errServer()
		e.status = status

		return e
	}

	return &apiError{status, unikorn.ErrorInvalidRequest, "request invalid"}
}

// reply is what an API handler produces: it is rendered to bytes while the world is
// still locked, so no response ever aliases state that a later request changes.
type reply struct {
	status       int
	body         any // nil: no body
	cacheControl string
}

func replyOK(body any) *reply {
	return &reply{status: http.StatusOK, body: body}
}

func replyCreated(body any) *reply {
	return &reply{status: http.StatusCreated, body: body}
}

// replyAccepted is 202; body may be nil for the verbs whose contract has no response body.
func replyAccepted(body any) *reply {
	return &reply{status: http.StatusAccepted, body: body}
}

func replyNoContent() *reply {
	return &reply{status: http.StatusNoContent}
}

// writeJSON writes an already encoded body.
func writeJSON(w http.ResponseWriter, status int, cacheControl string, body []byte) {
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

// writeError writes the core error body that every non-2xx response carries.
func writeError(w http.ResponseWriter, err error) {
	var apiErr *apiError
	if !errors.As(err, &apiErr) {
		apiErr = errServer()
	}

	body, _ := json.Marshal(unikorn.ErrorBody{
		Error:            apiErr.code,
		ErrorDescription: apiErr.description,
		TraceID:          newTraceID(),
	})

	writeJSON(w, apiErr.status, "no-cache", append(body, '\n'))
}

func newTraceID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)

	return hex.EncodeToString(b)
}

// maxBodyBytes bounds request bodies; real bodies are a few kilobytes.
const maxBodyBytes = 1 << 20

// decodeBody reads a JSON request body into dst. Like the OpenAPI validator that runs
// before every real handler, it first checks that each required member is present and
// not null. A required path is dotted ("spec.networkId"). A segment ending in "?" is an
// optional object whose members are required only when it is present
// ("spec.reservations?.prefixLength"); one ending in "[]" is an optional array whose
// every element needs the rest of the path ("spec.rules[].protocol").
func decodeBody(r *http.Request, dst any, required ...string) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mediaType, _, err := mime.ParseMediaType(ct); err != nil || mediaType != "application/json" {
			return &apiError{http.StatusUnsupportedMediaType, unikorn.ErrorUnsupportedMediaType, fmt.Sprintf("unsupported content type %q", ct)}
		}
	}

	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &apiError{http.StatusRequestEntityTooLarge, unikorn.ErrorRequestEntityTooLarge, "request body too large"}
		}

		return errBadRequest("request body could not be read: %v", err)
	}

	if len(bytes.TrimSpace(data)) == 0 {
		return errBadRequest("request body has an error: value is required but missing")
	}

	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return errBadRequest("request body has an error: failed to decode request body: %v", err)
	}

	for _, path := range required {
		if missing := missingMember(generic, strings.Split(path, "."), ""); missing != "" {
			return errMissingMember(missing)
		}
	}

	if err := json.Unmarshal(data, dst); err != nil {
		return errBadRequest("request body has an error: doesn't match schema: %v", err)
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

// errMissingMember is the OpenAPI validator's answer to a body that lacks a required
// member, at the JSON pointer given.
func errMissingMember(pointer string) *apiError {
	return errBadRequest("request body has an error: doesn't match schema: Error at %q: property %q is missing", pointer, lastSegment(pointer))
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

// validateWriteMetadata checks core `resourceWriteMetadata`.
func validateWriteMetadata(metadata unikorn.WriteMetadata) error {
	if !labelValuePattern.MatchString(metadata.Name) {
		return errBadRequest("request body has an error: doesn't match schema: Error at \"/metadata/name\": string doesn't match the regular expression %q", labelValuePattern.String())
	}

	return nil
}

// validateUUID checks a body member declared `format: uuid`.
func validateUUID(pointer, value string) error {
	if !uuidPattern.MatchString(value) {
		return errBadRequest("request body has an error: doesn't match schema: Error at %q: string doesn't match the format \"uuid\"", pointer)
	}

	return nil
}

// writeMetadataRequired is the required part of core `resourceWriteMetadata`, the
// first member of every create and update body.
var writeMetadataRequired = []string{"metadata", "metadata.name", "metadata.tags[].name", "metadata.tags[].value"}

func requiredWith(extra ...string) []string {
	return append(append([]string{}, writeMetadataRequired...), extra...)
}
