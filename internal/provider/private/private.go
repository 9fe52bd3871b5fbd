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
	if created.IsZero() {
		return
	}

	keep(ctx, w, creationTimeKey, created.UTC().Format(time.RFC3339Nano), diags)
}

// CreationTime is what KeepCreationTime recorded, or zero when nothing (or nothing
// readable) was: state written before it was kept, or by an import.
func CreationTime(ctx context.Context, r Reader, diags *diag.Diagnostics) time.Time {
	text, ok := read[string](ctx, r, creationTimeKey, diags)
	if !ok {
		return time.Time{}
	}

	created, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return time.Time{}
	}

	return created
}

// KeepCreateAnswered records when the provider saw the answer to the create that
// made the object (cloud.Creation's Answered). A destroy right after the apply meets
// objects younger than the read lag and the margin the cloud's whole-second creation
// time needs: this bound lets it believe their 404s sooner. A wall-clock time would
// not do: the state may be destroyed on another machine, or after the clock was set
// forward, and the 404 believed early by as much. So it is kept by this machine's
// time since boot, and read back only on the same machine in the same boot. It is
// written by the create alone, and kept by every later save.
func KeepCreateAnswered(ctx context.Context, w Writer, answered time.Time, diags *diag.Diagnostics) {
	if answered.IsZero() {
		return
	}

	// Measured in this order, the mark is never earlier than the answer.
	elapsed := time.Since(answered)

	boot, up, ok := sinceBoot()
	if !ok {
		return
	}

	keep(ctx, w, createAnsweredKey, bootMark{Boot: boot, SinceBoot: up - elapsed}, diags)
}

// CreateAnswered is what KeepCreateAnswered recorded, as a time of this process's
// clock; zero when nothing was, or it was recorded on another machine or boot.
func CreateAnswered(ctx context.Context, r Reader, diags *diag.Diagnostics) time.Time {
	mark, ok := read[bootMark](ctx, r, createAnsweredKey, diags)
	if !ok {
		return time.Time{}
	}

	// Measured in this order, the time is never earlier than the mark.
	boot, up, ok := sinceBoot()
	if !ok || mark.Boot == "" || mark.Boot != boot || mark.SinceBoot > up {
		return time.Time{}
	}

	return time.Now().Add(mark.SinceBoot - up)
}

// bootMark is a moment as a machine's time since one of its boots.
type bootMark struct {
	Boot      string        `json:"boot"`
	SinceBoot time.Duration `json:"since_boot"`
}

// keep writes a value of the kind read decodes: JSON, as private state must be.
func keep(ctx context.Context, w Writer, key string, value any, diags *diag.Diagnostics) {
	raw, _ := json.Marshal(value) //nolint:errchkjson // strings and plain fields always marshal
	diags.Append(w.SetKey(ctx, key, raw)...)
}

// read is what keep wrote under key; false when nothing (or nothing readable) was:
// state written before the key was kept, or by an import, or by another version.
func read[T any](ctx context.Context, r Reader, key string, diags *diag.Diagnostics) (T, bool) {
	var value T

	raw, d := r.GetKey(ctx, key)
	diags.Append(d...)

	if len(raw) == 0 || json.Unmarshal(raw, &value) != nil {
		return value, false
	}

	return value, true
}
