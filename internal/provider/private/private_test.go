package private_test

import (
	"context"
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

// The moment the create was answered is kept beside the creation time, to the
// nanosecond: a destroy right after the apply settles a 404 by it (cloud.Creation).
func TestTheCreatesAnswerKeptIsReadBesideTheCreationTime(t *testing.T) {
	t.Parallel()

	var diags diag.Diagnostics

	created := time.Date(2026, 11, 24, 11, 19, 17, 0, time.UTC)
	answered := created.Add(412_345_678 * time.Nanosecond)
	state := keys{}
	private.KeepCreationTime(t.Context(), state, created, &diags)
	private.KeepCreateAnswered(t.Context(), state, answered, &diags)

	assert.True(t, answered.Equal(private.CreateAnswered(t.Context(), state, &diags)))
	assert.True(t, created.Equal(private.CreationTime(t.Context(), state, &diags)))
	assert.True(t, private.CreateAnswered(t.Context(), keys{"creation_time": state["creation_time"]}, &diags).IsZero(),
		"an object the provider did not create, or state kept before, knows none")
	assert.False(t, diags.HasError())
}
