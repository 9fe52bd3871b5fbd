package private_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
)

// keys stands for the framework's private state.
type keys map[string][]byte

func (k keys) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	k[key] = value

	return nil
}

func (k keys) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return k[key], nil
}

func TestACreationTimeKeptIsReadBack(t *testing.T) {
	t.Parallel()

	var diags diag.Diagnostics

	created := time.Date(2026, 11, 24, 11, 19, 17, 250_000_000, time.FixedZone("CET", 3600))
	state := keys{}
	private.KeepCreationTime(t.Context(), state, created, &diags)

	assert.True(t, created.Equal(private.CreationTime(t.Context(), state, &diags)))
	assert.False(t, diags.HasError())
}

// State written before the time was kept, or by an import, knows none: the delete
// then reads the object first, as it always did.
func TestNoCreationTimeKeptIsZero(t *testing.T) {
	t.Parallel()

	var diags diag.Diagnostics

	assert.True(t, private.CreationTime(t.Context(), keys{}, &diags).IsZero())
	assert.True(t, private.CreationTime(t.Context(), keys{"creation_time": []byte(`"yesterday"`)}, &diags).IsZero())

	state := keys{}
	private.KeepCreationTime(t.Context(), state, time.Time{}, &diags)
	assert.Empty(t, state, "an unknown time is not kept")
	assert.False(t, diags.HasError())
}

// The moment the create was answered is kept by the machine's time since boot, and
// read back as a time of this process's clock, never earlier than it was: a destroy
// right after the apply settles a 404 by it (cloud.Creation).
func TestTheCreatesAnswerKeptIsReadBackOnTheSameBoot(t *testing.T) {
	t.Parallel()

	if runtime.GOOS != "linux" {
		t.Skip("kept by the time since boot, which only Linux tells")
	}

	var diags diag.Diagnostics

	answered := time.Now().Add(-1500 * time.Millisecond)
	state := keys{}
	private.KeepCreateAnswered(t.Context(), state, answered, &diags)

	got := private.CreateAnswered(t.Context(), state, &diags)
	assert.WithinRange(t, got, answered, answered.Add(50*time.Millisecond))
	assert.False(t, diags.HasError())
}

// A mark made on another machine, or before this one's last boot, says nothing of this
// process's clock; nor does an unreadable one, or none: each is zero, and the delete
// settles a 404 by the cloud's creation time.
func TestTheCreatesAnswerOfAnotherBootIsUnknown(t *testing.T) {
	t.Parallel()

	var diags diag.Diagnostics

	for name, state := range map[string]keys{
		"another boot": {"create_answered": []byte(`{"boot":"another","since_boot":1000000000}`)},
		"a wall time":  {"create_answered": []byte(`"2026-11-24T11:19:17Z"`)},
		"nothing kept": {},
		"the future":   {"create_answered": []byte(`{"boot":"","since_boot":9000000000000000000}`)},
	} {
		assert.True(t, private.CreateAnswered(t.Context(), state, &diags).IsZero(), name)
	}

	state := keys{}
	private.KeepCreateAnswered(t.Context(), state, time.Time{}, &diags)
	assert.Empty(t, state, "an unknown time is not kept")
	assert.False(t, diags.HasError())
}
