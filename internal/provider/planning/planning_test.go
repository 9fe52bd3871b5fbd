package planning_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
)

func TestKnownStrings(t *testing.T) {
	mixed := types.SetValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringUnknown()})
	known, unknown := planning.KnownStrings(mixed)
	assert.Equal(t, []string{"a"}, known)
	assert.True(t, unknown, "an element not known makes the set not wholly known")

	known, unknown = planning.KnownStrings(types.ListValueMust(types.StringType, []attr.Value{types.StringValue("b")}))
	assert.Equal(t, []string{"b"}, known)
	assert.False(t, unknown)

	known, unknown = planning.KnownStrings(types.SetUnknown(types.StringType))
	assert.Empty(t, known)
	assert.True(t, unknown)

	known, unknown = planning.KnownStrings(types.SetNull(types.StringType))
	assert.Empty(t, known)
	assert.False(t, unknown)

	entries, unknown := planning.KnownStringMap(types.MapValueMust(types.StringType, map[string]attr.Value{
		"team": types.StringValue("web"), "owner": types.StringUnknown(),
	}))
	assert.Equal(t, map[string]string{"team": "web"}, entries)
	assert.True(t, unknown)
}

func TestDefault(t *testing.T) {
	// Left out of the configuration: the default.
	assert.Equal(t, types.StringValue("org"), planning.Default(types.StringNull(), types.StringUnknown(), "org"))
	// Configured but not yet known: stays unknown, as Terraform requires.
	assert.True(t, planning.Default(types.StringUnknown(), types.StringUnknown(), "org").IsUnknown())
	// Configured: the configuration's.
	assert.Equal(t, types.StringValue("mine"), planning.Default(types.StringValue("mine"), types.StringValue("mine"), "org"))
	// Kept from the state: stays.
	assert.Equal(t, types.StringValue("kept"), planning.Default(types.StringNull(), types.StringValue("kept"), "org"))
	// No default: unknown until apply.
	assert.True(t, planning.Default(types.StringNull(), types.StringUnknown(), "").IsUnknown())
}
