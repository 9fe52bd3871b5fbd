package provider_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// Every object Unikorn names by core's one name rule (a Kubernetes label value) is
// refused at plan, on its name, when the name breaks it: a resource type whose `name`
// is configurable and whose validators let a bad name through would send it, and see
// the service refuse it at apply.
func TestEveryConfigurableNameFollowsCoresRule(t *testing.T) {
	ctx := context.Background()
	unikorn := provider.New("test")()

	for _, newResource := range unikorn.Resources(ctx) {
		r := newResource()

		var metadata resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "unikorn"}, &metadata)

		var response resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &response)

		attribute, ok := response.Schema.Attributes["name"].(schema.StringAttribute)
		if !ok || (!attribute.Required && !attribute.Optional) {
			continue
		}

		t.Run(metadata.TypeName, func(t *testing.T) {
			for _, bad := range []string{"web server", "-web", "web.", "a23456789012345678901234567890123456789012345678901234567890abcd"} {
				assert.True(t, refused(ctx, attribute.Validators, bad), "the name %q is let through", bad)
			}

			for _, good := range []string{"web", "web-1.a_b", "a"} {
				assert.False(t, refused(ctx, attribute.Validators, good), "the name %q is refused", good)
			}
		})
	}
}

func refused(ctx context.Context, validators []validator.String, value string) bool {
	for _, v := range validators {
		response := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root("name"), ConfigValue: types.StringValue(value)}, response)

		if response.Diagnostics.HasError() {
			return true
		}
	}

	return false
}
