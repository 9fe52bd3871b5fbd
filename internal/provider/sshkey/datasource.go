package sshkey

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceref"
)

var (
	_ datasource.DataSource              = (*DataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*DataSource)(nil)
)

// DataSource is the unikorn_compute_instance_ssh_key data source.
type DataSource struct {
	family.DataSource
}

// NewDataSource returns the data source for the provider to serve.
func NewDataSource() datasource.DataSource {
	return &DataSource{family.DataSource{Name: TypeName, Looks: "read the instance's SSH key"}}
}

func (d *DataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := instanceref.DataSourceAttributes()
	maps.Copy(attributes, map[string]schema.Attribute{
		"private_key":        schema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: privateKeyDescription},
		"public_key_openssh": schema.StringAttribute{Computed: true, MarkdownDescription: publicKeyDescription},
	})

	resp.Schema = schema.Schema{
		MarkdownDescription: "The private SSH key of a compute instance.\n\n" +
			"~> **The key is stored in the Terraform state in plain text.** `sensitive` only hides it in " +
			"the CLI's output; anyone who can read the state can log in to the instance. Prefer the " +
			"`" + TypeName + "` **ephemeral resource**, which returns the same key without ever writing it " +
			"to the plan or the state.",
		Attributes: attributes,
	}
}

func (d *DataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data model

	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	resp.Diagnostics.Append(data.read(ctx, d.Provider.Instances)...)

	if resp.Diagnostics.HasError() {
		return
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
