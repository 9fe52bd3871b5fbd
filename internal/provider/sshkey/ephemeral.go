package sshkey

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceref"
)

var (
	_ ephemeral.EphemeralResource              = (*EphemeralResource)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*EphemeralResource)(nil)
)

// EphemeralResource is the unikorn_compute_instance_ssh_key ephemeral resource.
type EphemeralResource struct {
	family.Ephemeral
}

// NewEphemeralResource returns the ephemeral resource for the provider to serve.
func NewEphemeralResource() ephemeral.EphemeralResource {
	return &EphemeralResource{family.Ephemeral{DataSource: family.DataSource{Name: TypeName}}}
}

func (r *EphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	attributes := instanceref.EphemeralAttributes()
	maps.Copy(attributes, map[string]schema.Attribute{
		"private_key":        schema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: privateKeyDescription},
		"public_key_openssh": schema.StringAttribute{Computed: true, MarkdownDescription: publicKeyDescription},
	})

	resp.Schema = schema.Schema{
		MarkdownDescription: "The private SSH key of a compute instance, read each time Terraform needs it and " +
			"never written to the plan or the state. Use it where ephemeral values are accepted: provider " +
			"configuration, write-only attributes, provisioner `connection` blocks, other ephemeral resources.",
		Attributes: attributes,
	}
}

func (r *EphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var data model

	resp.Diagnostics.Append(req.Config.Get(ctx, &data)...)

	if resp.Diagnostics.HasError() {
		return
	}

	// While the provider's configuration is not known (in a plan), the key is not
	// either: Terraform opens the resource again when it applies.
	if !r.Provider.Online() {
		data.PrivateKey, data.PublicKeyOpenSSH = types.StringUnknown(), types.StringUnknown()
		resp.Diagnostics.Append(resp.Result.Set(ctx, &data)...)

		return
	}

	resp.Diagnostics.Append(data.read(ctx, r.Provider.Instances)...)

	if resp.Diagnostics.HasError() {
		return
	}

	resp.Diagnostics.Append(resp.Result.Set(ctx, &data)...)
}
