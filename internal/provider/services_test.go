package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Every declared service reaches the provider: an optional attribute of the provider
// block, described as its declaration says; read from the block, or from its
// variable when the block leaves it unset; and handed to the client's settings.
func TestEveryServiceReachesTheProvider(t *testing.T) {
	t.Parallel()

	var response provider.SchemaResponse

	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &response)
	require.False(t, response.Diagnostics.HasError(), "%v", response.Diagnostics)

	fromBlock, fromEnv := map[string]string{}, fullEnv()
	for _, service := range services.All() {
		fromBlock[service.Attribute()] = "https://block.example.com/" + service.Name()
		fromEnv[service.EnvVar()] = "https://env.example.com/" + service.Name()
	}

	model, diags := readModel(context.Background(), providerConfig(t, response.Schema, fromBlock))
	require.False(t, diags.HasError(), "%v", diags)

	settings, _, diags := resolveSettings(model, "test", fromEnv.get)
	require.False(t, diags.HasError(), "%v", diags)

	settingsFromEnv, _, diags := resolveSettings(nullModel(), "test", fromEnv.get)
	require.False(t, diags.HasError(), "%v", diags)

	for _, service := range services.All() {
		attribute, ok := response.Schema.Attributes[service.Attribute()].(schema.StringAttribute)
		require.True(t, ok, "%s has a string attribute %q", service, service.Attribute())
		assert.True(t, attribute.Optional, "%s: every setting can come from the environment", service)
		assert.Equal(t, service.MarkdownDescription(), attribute.MarkdownDescription)

		assert.Equal(t, "https://block.example.com/"+service.Name(), settings.Endpoints[service], "%s: the block wins", service)
		assert.Equal(t, "https://env.example.com/"+service.Name(), settingsFromEnv.Endpoints[service], "%s: from %s", service, service.EnvVar())
	}
}

// providerConfig is the provider block that sets the attributes given and nothing else.
func providerConfig(t *testing.T, s schema.Schema, set map[string]string) tfsdk.Config {
	t.Helper()

	objectType, ok := s.Type().TerraformType(context.Background()).(tftypes.Object)
	require.True(t, ok)

	values := map[string]tftypes.Value{}

	for name, attributeType := range objectType.AttributeTypes {
		values[name] = tftypes.NewValue(attributeType, nil)
		if value, ok := set[name]; ok {
			values[name] = tftypes.NewValue(attributeType, value)
		}
	}

	return tfsdk.Config{Schema: s, Raw: tftypes.NewValue(objectType, values)}
}

// readModel keeps every other setting where its tag says.
func TestReadModelReadsEverySetting(t *testing.T) {
	t.Parallel()

	var response provider.SchemaResponse

	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &response)

	model, diags := readModel(context.Background(), providerConfig(t, response.Schema, map[string]string{
		attrToken: "t", attrInstanceAPI: "compute", attrProjectID: "p",
	}))
	require.False(t, diags.HasError(), "%v", diags)

	assert.Equal(t, types.StringValue("t"), model.Token)
	assert.Equal(t, types.StringValue("compute"), model.InstanceAPI)
	assert.Equal(t, types.StringValue("p"), model.ProjectID)
	assert.True(t, model.OrganizationID.IsNull())
	assert.True(t, model.Insecure.IsNull())
}
