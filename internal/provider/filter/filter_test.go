package filter_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/filter"
)

func TestString(t *testing.T) {
	t.Parallel()

	assert.True(t, filter.String(types.StringNull(), "anything"))
	assert.True(t, filter.String(types.StringValue("x86_64"), "x86_64"))
	assert.False(t, filter.String(types.StringValue("x86_64"), "aarch64"))
	assert.False(t, filter.String(types.StringValue("Ubuntu"), "ubuntu"), "names match exactly")
}

func TestAtLeast(t *testing.T) {
	t.Parallel()

	assert.True(t, filter.AtLeast(types.Int64Null(), 0))
	assert.True(t, filter.AtLeast(types.Int64Value(4), 4))
	assert.True(t, filter.AtLeast(types.Int64Value(4), 8))
	assert.False(t, filter.AtLeast(types.Int64Value(4), 2))
}

func TestPresent(t *testing.T) {
	t.Parallel()

	assert.True(t, filter.Present(types.BoolNull(), true))
	assert.True(t, filter.Present(types.BoolNull(), false))
	assert.True(t, filter.Present(types.BoolValue(true), true))
	assert.False(t, filter.Present(types.BoolValue(true), false))
	assert.True(t, filter.Present(types.BoolValue(false), false))
	assert.False(t, filter.Present(types.BoolValue(false), true))
}
