// Package private keeps in a resource's private state what its later operations need
// and its schema does not show. Terraform stores private state beside the resource's
// state and hands it to every later call, in whatever provider process makes it.
package private

import (
	"context"
	"encoding/json"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Writer is the private state of a create, read, update or import response.
type Writer interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// Reader is the private state of a request.
type Reader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

const (
	creationTimeKey   = "creation_time"
	createAnsweredKey = "create_answered"
)

// KeepCreationTime records when the cloud created the object. A destroy deletes in a
// provider process that has not read the object, and without its age a 404 after the
// delete is believed only past the read lag: knowing it saves reading the object
// before its delete.
func KeepCreationTime(ctx context.Context, w Writer, created time.Time, diags *diag.Diagnostics) {
	keepTime(ctx, w, creationTimeKey, created, diags)
}

// CreationTime is what KeepCreationTime recorded, or zero when nothing (or nothing
// readable) was: state written before it was kept, or by an import.
func CreationTime(ctx context.Context, r Reader, diags *diag.Diagnostics) time.Time {
	return timeAt(ctx, r, creationTimeKey, diags)
}

// KeepCreateAnswered records when the provider saw the answer to the create that
// made the object, on its machine's clock (cloud.Creation's Answered). A destroy
// right after the apply meets objects younger than the read lag and the margin the
// cloud's whole-second creation time needs: this bound lets it believe their 404s
// sooner. It is written by the create alone, and kept by every later save.
func KeepCreateAnswered(ctx context.Context, w Writer, answered time.Time, diags *diag.Diagnostics) {
	keepTime(ctx, w, createAnsweredKey, answered, diags)
}

// CreateAnswered is what KeepCreateAnswered recorded, or zero.
func CreateAnswered(ctx context.Context, r Reader, diags *diag.Diagnostics) time.Time {
	return timeAt(ctx, r, createAnsweredKey, diags)
}

// keepTime records at under key; a zero time records nothing.
func keepTime(ctx context.Context, w Writer, key string, at time.Time, diags *diag.Diagnostics) {
	if at.IsZero() {
		return
	}

	value, _ := json.Marshal(at.UTC().Format(time.RFC3339Nano)) //nolint:errchkjson // a string always marshals
	diags.Append(w.SetKey(ctx, key, value)...)
}

// timeAt is what keepTime recorded under key, or zero when nothing (or nothing
// readable) was.
func timeAt(ctx context.Context, r Reader, key string, diags *diag.Diagnostics) time.Time {
	raw, d := r.GetKey(ctx, key)
	diags.Append(d...)

	var text string
	if len(raw) == 0 || json.Unmarshal(raw, &text) != nil {
		return time.Time{}
	}

	at, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return time.Time{}
	}

	return at
}
