package floor

import (
	"testing"

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
