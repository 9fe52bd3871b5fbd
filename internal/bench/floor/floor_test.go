package floor

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What only the cloud would know is made up, of its type; what the plan knew is kept.
func TestMadeUpFillsOnlyTheUnknown(t *testing.T) {
	t.Parallel()

	object := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"name": tftypes.String, "id": tftypes.String, "public_ip": tftypes.Bool,
		"tags": tftypes.Map{ElementType: tftypes.String},
	}}

	planned := tftypes.NewValue(object, map[string]tftypes.Value{
		"name":      tftypes.NewValue(tftypes.String, "web"),
		"id":        tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"public_ip": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue),
		"tags":      tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, tftypes.UnknownValue),
	})

	known, err := madeUp(planned)
	require.NoError(t, err)
	assert.True(t, known.IsFullyKnown())

	var attributes map[string]tftypes.Value
	require.NoError(t, known.As(&attributes))

	var name, id string
	require.NoError(t, attributes["name"].As(&name))
	require.NoError(t, attributes["id"].As(&id))
	assert.Equal(t, "web", name)
	assert.Equal(t, "floor", id)
	assert.True(t, attributes["tags"].IsNull())
}

// The bench paces the floor through the environment Terraform starts it with: what
// Environ writes, PacingFromEnvironment reads back.
func TestPacingTravelsThroughTheEnvironment(t *testing.T) {
	pacing := Pacing{Create: 2050 * time.Millisecond, Update: 2050 * time.Millisecond, Delete: 550 * time.Millisecond}

	for _, entry := range pacing.Environ() {
		name, value, _ := strings.Cut(entry, "=")
		t.Setenv(name, value)
	}

	read, err := PacingFromEnvironment()
	require.NoError(t, err)
	assert.Equal(t, pacing, read)
}

// A pace that is no duration stops the floor, naming the variable, rather than
// measuring a floor that does not wait.
func TestPacingRefusesWhatIsNoDuration(t *testing.T) {
	for _, value := range []string{"2", "-1s", "soon"} {
		t.Setenv(UpdateTakesVariable, value)

		_, err := PacingFromEnvironment()
		require.Error(t, err, value)
		assert.Contains(t, err.Error(), UpdateTakesVariable)
	}
}

// Unpaced, nothing waits.
func TestPacingUnsetIsNoPause(t *testing.T) {
	for _, name := range []string{CreateTakesVariable, UpdateTakesVariable, DeleteTakesVariable} {
		t.Setenv(name, "")
		require.NoError(t, os.Unsetenv(name))
	}

	read, err := PacingFromEnvironment()
	require.NoError(t, err)
	assert.Equal(t, Pacing{}, read)
}
