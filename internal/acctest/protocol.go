package acctest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// ProtocolServer is the provider served in-process over the plugin protocol,
// configured with the provider block's attributes set (every other one null), for a
// test of what Terraform would hide from it (a list's limit, a diagnostic's
// attribute path), and the schemas it serves.
func ProtocolServer(t *testing.T, set map[string]string) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()

	server, err := providerserver.NewProtocol6WithError(provider.New(ProviderVersion)())()
	require.NoError(t, err)

	schemas, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	require.NoError(t, err)

	configured, err := server.ConfigureProvider(t.Context(), &tfprotov6.ConfigureProviderRequest{
		Config: DynamicValue(t, schemas.Provider.Block, Strings(set)),
	})
	require.NoError(t, err)
	require.Empty(t, configured.Diagnostics)

	return server, schemas
}

// Strings are string attributes as values of the plugin protocol.
func Strings(set map[string]string) map[string]tftypes.Value {
	values := map[string]tftypes.Value{}
	for name, value := range set {
		values[name] = tftypes.NewValue(tftypes.String, value)
	}

	return values
}

// DynamicValue is an object of the block's type with the given attributes set and
// every other one null, as Terraform sends a configuration.
func DynamicValue(t *testing.T, block *tfprotov6.SchemaBlock, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()

	typ, ok := block.ValueType().(tftypes.Object)
	require.True(t, ok, "a block is an object")

	values := map[string]tftypes.Value{}

	for name, attributeType := range typ.AttributeTypes {
		value, ok := set[name]
		if !ok {
			value = tftypes.NewValue(attributeType, nil)
		}

		values[name] = value
	}

	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, values))
	require.NoError(t, err)

	return &dv
}
