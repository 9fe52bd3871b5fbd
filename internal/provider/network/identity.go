package network

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// identified gives a resource of this package its identity, the object's ID, by which
// it is imported (see managed.ImportState). Region's IDs are unique across
// organizations and projects, so the ID alone names the object.
type identified struct{}

type identityModel struct {
	ID types.String `tfsdk:"id"`
}

func (identified) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the object in region."},
	}}
}

// saveIdentity records the identity of the object id, when the CLI keeps identities.
func saveIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id types.String, diags *diag.Diagnostics) {
	if identity != nil {
		diags.Append(identity.Set(ctx, identityModel{ID: id})...)
	}
}
