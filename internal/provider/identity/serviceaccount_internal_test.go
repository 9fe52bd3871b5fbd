package identity

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// deletions answers identity's delete of a service account with err.
type deletions struct {
	identity.Objects

	err error
}

func (d *deletions) DeleteServiceAccount(context.Context, string, string, time.Time) error {
	return d.err
}

// A deleted service account's token, which this run received, is handed on no more;
// one whose delete failed still is.
func TestDeletedServiceAccountsTokenIsForgotten(t *testing.T) {
	const organizationID, id = "c0000000-0000-4000-8000-000000000001", "c0000000-0000-4000-8000-000000000002"

	for name, refused := range map[string]error{"deleted": nil, "refused": errors.New("refused")} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			data := &providerdata.Data{Identity: &deletions{err: refused}, Tokens: &providerdata.Tokens{}}
			data.Tokens.Hold(id, providerdata.Token{Token: "secret", Expiry: time.Now().Add(time.Hour)})

			r, ok := NewServiceAccountResource().(*serviceAccountResource)
			require.True(t, ok)

			r.Configure(ctx, resource.ConfigureRequest{ProviderData: data}, &resource.ConfigureResponse{})

			var schema resource.SchemaResponse
			r.Schema(ctx, resource.SchemaRequest{}, &schema)

			state := tfsdk.State{Schema: schema.Schema, Raw: tftypes.NewValue(schema.Schema.Type().TerraformType(ctx), nil)}
			require.False(t, state.SetAttribute(ctx, path.Root("id"), id).HasError())
			require.False(t, state.SetAttribute(ctx, path.Root("organization_id"), organizationID).HasError())

			var resp resource.DeleteResponse
			r.Delete(ctx, resource.DeleteRequest{State: state}, &resp)

			_, held := data.Tokens.Held(id)
			assert.Equal(t, refused != nil, resp.Diagnostics.HasError(), "%v", resp.Diagnostics)
			assert.Equal(t, refused != nil, held)
		})
	}
}
