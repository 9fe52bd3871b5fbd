package instance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// apiError is an answer compute gives itself, with the core error body.
type apiError struct {
	status      int
	code        string
	description string
}

func (e *apiError) Error() string { return e.code + ": " + e.description }

func errBadRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, unikorn.ErrorInvalidRequest, fmt.Sprintf(format, args...)}
}

func errUnprocessable(format string, args ...any) error {
	return &apiError{http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent, fmt.Sprintf(format, args...)}
}

func errNotFound() error {
	return &apiError{http.StatusNotFound, unikorn.ErrorNotFound, "resource not found"}
}

func errConflict() error {
	return &apiError{http.StatusConflict, unikorn.ErrorConflict, "the requested resource already exists"}
}

const serverErrorDescription = "an internal error has occurred, please contact support"

func errServer() error {
	return &apiError{http.StatusInternalServerError, unikorn.ErrorServerError, serverErrorDescription}
}

// writeError answers err. Region's and identity's answers that compute passes through
// keep their status, code and description; anything else is compute's own 500.
func writeError(w http.ResponseWriter, err error) {
	body := unikorn.ErrorBody{}
	status := http.StatusInternalServerError

	var own *apiError

	var upstream *unikorn.APIError

	switch {
	case errors.As(err, &own):
		status, body.Error, body.ErrorDescription = own.status, own.code, own.description
	case errors.As(err, &upstream) && upstream.Code != "":
		status, body.Error, body.ErrorDescription, body.TraceID = upstream.StatusCode, upstream.Code, upstream.Description, upstream.TraceID
	default:
		body.Error, body.ErrorDescription = unikorn.ErrorServerError, serverErrorDescription
	}

	// Every error body of core carries the trace of the request that failed.
	if body.TraceID == "" {
		body.TraceID = core.NewTraceID()
	}

	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer error=%q", unikorn.ErrorAccessDenied))
	}

	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	if body == nil {
		w.WriteHeader(status)

		return
	}

	data, err := json.Marshal(body)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"error":"server_error","error_description":"response could not be encoded"}`)
	}

	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

// decode reads a JSON body, refusing one that is missing or malformed.
func decode(r *http.Request, dst any) error {
	if r.Body == nil {
		return errBadRequest("request body has an error: value is required but missing")
	}

	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(dst); err != nil {
		return errBadRequest("request body has an error: failed to decode request body: %v", err)
	}

	return nil
}

// background is a context for the controller's calls that outlive a cancelled request:
// a write already sent must be finished.
func background(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx)
}
