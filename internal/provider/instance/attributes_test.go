package instance

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The resource's schema, the data source's and the replacement rules all come from
// one description of each attribute: an attribute's change replaces the instance
// exactly when the schema plans a replacement for it, and the data source shows every
// attribute the resource keeps in state, described the same.
func TestAttributesAreDescribedOnce(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	var resp resource.SchemaResponse
	(&Resource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	require.False(t, resp.Diagnostics.HasError())

	var dsResp datasource.SchemaResponse
	(&DataSource{}).Schema(ctx, datasource.SchemaRequest{}, &dsResp)
	require.False(t, dsResp.Diagnostics.HasError())

	requiresReplace := stringplanmodifier.RequiresReplace().Description(ctx)

	for name, a := range resp.Schema.Attributes {
		if name == "timeouts" {
			continue
		}

		described, ok := attributes[name]
		if !assert.True(t, ok, "resource attribute %s is not described", name) {
			continue
		}

		assert.Equal(t, resourceDescription(name), a.GetMarkdownDescription(), name)
		assert.Equal(t, described.change == replaces, plansReplacement(ctx, a, requiresReplace),
			"%s: whether its change replaces the instance", name)

		if described.change == updatesInPlace {
			assert.True(t, a.IsOptional() || a.IsRequired(), "%s is updated in place, so it is an argument", name)
		}

		if described.resourceOnly {
			continue
		}

		observed, ok := dsResp.Schema.Attributes[name]
		if assert.True(t, ok, "the data source does not show %s", name) {
			assert.Contains(t, observed.GetMarkdownDescription(), described.about, name)
		}
	}

	for name := range dsResp.Schema.Attributes {
		_, ok := attributes[name]
		assert.True(t, ok, "data source attribute %s is not described", name)
	}

	for name := range attributes {
		_, ok := resp.Schema.Attributes[name]
		assert.True(t, ok, "described attribute %s is not in the resource", name)
	}

	assert.True(t, slices.IsSorted(replacingAttributes()))
	assert.NotEmpty(t, replacingAttributes())
}

// plansReplacement reports whether the schema plans a replacement when a changes.
func plansReplacement(ctx context.Context, a schema.Attribute, requiresReplace string) bool {
	switch typed := a.(type) {
	case schema.StringAttribute:
		for _, modifier := range typed.PlanModifiers {
			if modifier.Description(ctx) == requiresReplace {
				return true
			}
		}
	case schema.Int64Attribute:
		for _, modifier := range typed.PlanModifiers {
			if modifier.Description(ctx) == requiresReplace {
				return true
			}
		}
	}

	return false
}
