package provider_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// Every look-up of one object is by its ID or by what names it, exactly one of them
// (family.ByIDOrName), and read by its ID it is read where it is: an attribute that
// narrows a search by name, given beside the ID, is refused at plan rather than
// silently ignored.
func TestEveryLookUpIsByIDOrByNameAndNotBoth(t *testing.T) {
	ctx := context.Background()
	looked := 0

	for _, newDataSource := range provider.New("test")().DataSources(ctx) {
		var response datasource.SchemaResponse

		served := newDataSource()
		served.Schema(ctx, datasource.SchemaRequest{}, &response)

		name := namedBy(response.Schema)
		if name == "" {
			continue
		}

		looked++

		d, ok := served.(datasource.DataSourceWithConfigValidators)
		if !assert.True(t, ok, "%T looks up by id or %s, with no rule for it", served, name) {
			continue
		}

		t.Run(fmt.Sprintf("%T", d), func(t *testing.T) {
			// As the framework does, each validator answers its own response.
			refused := func(set ...string) bool {
				config := configOf(ctx, response.Schema, set...)
				for _, v := range d.ConfigValidators(ctx) {
					var validated datasource.ValidateConfigResponse
					if v.ValidateDataSource(ctx, datasource.ValidateConfigRequest{Config: config}, &validated); validated.Diagnostics.HasError() {
						return true
					}
				}

				return false
			}

			assert.False(t, refused("id"), "by ID")
			assert.True(t, refused("id", name), "by ID and %s", name)
			assert.True(t, refused(), "by nothing")

			// Identity keys its objects by organization and ID (family.InOrganization),
			// and the Kubernetes service lists its clusters by organization: there
			// organization_id says where the ID is, and narrows nothing.
			family := fmt.Sprintf("%T", d)
			locates := map[string]bool{
				"id": true, name: true,
				"organization_id": strings.HasPrefix(family, "*identity.") || strings.HasPrefix(family, "*kubernetes."),
			}

			for attribute, a := range response.Schema.Attributes {
				if optional, ok := a.(schema.StringAttribute); ok && optional.Optional && !locates[attribute] {
					assert.True(t, refused("id", attribute), "by ID with %s", attribute)
				}
			}
		})
	}

	// The networks', security groups', SSH CAs', load balancers', file storage's,
	// volumes', instances', projects', groups', users' and Kubernetes clusters' look-ups.
	assert.Equal(t, 11, looked, "the look-ups by ID or name")
}

// namedBy is the optional attribute beside an optional id that names the object, if
// the schema has both.
func namedBy(s schema.Schema) string {
	id, ok := s.Attributes["id"].(schema.StringAttribute)
	if !ok || !id.Optional {
		return ""
	}

	for _, name := range []string{"name", "subject"} {
		if a, ok := s.Attributes[name].(schema.StringAttribute); ok && a.Optional {
			return name
		}
	}

	return ""
}

// configOf is a configuration of s that sets the string attributes named, and
// nothing else.
func configOf(ctx context.Context, s schema.Schema, set ...string) tfsdk.Config {
	values := map[string]tftypes.Value{}
	for attribute, a := range s.Attributes {
		values[attribute] = tftypes.NewValue(a.GetType().TerraformType(ctx), nil)
	}

	for _, attribute := range set {
		values[attribute] = tftypes.NewValue(tftypes.String, "b0000000-0000-4000-8000-000000000001")
	}

	return tfsdk.Config{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), values)}
}
