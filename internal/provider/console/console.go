// Package console serves the console output of a compute instance: its boot log and
// whatever else it writes to its serial console, for debugging a boot from Terraform.
package console

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceref"
)

// TypeName is the data source's Terraform type.
const TypeName = "unikorn_compute_instance_console_output"

var (
	_ datasource.DataSource              = (*DataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*DataSource)(nil)
)

// DataSource is the unikorn_compute_instance_console_output data source.
type DataSource struct {
	family.DataSource
}

// NewDataSource returns the data source for the provider to serve.
func NewDataSource() datasource.DataSource {
	return &DataSource{family.DataSource{Name: TypeName, Looks: "read the instance's console output"}}
}

type model struct {
	instanceref.Model

	Lines    types.Int64  `tfsdk:"lines"`
	Contents types.String `tfsdk:"contents"`
}

func (d *DataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := instanceref.DataSourceAttributes()
	maps.Copy(attributes, map[string]schema.Attribute{
		"lines": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "Only the last this many lines. Without it, the whole output the cloud keeps.",
			Validators:          []validator.Int64{int64validator.AtLeast(1)},
		},
		"contents": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The console output, lines separated by newlines.",
		},
	})

	resp.Schema = schema.Schema{
		MarkdownDescription: "The console output of a compute instance: what it wrote to its serial console " +
			"while booting and since, such as kernel and cloud-init messages. Read when the data source is " +
			"read, so every plan shows the output of that moment. The instance must have been placed on a " +
			"host; a pending one has no console yet.",
		Attributes: attributes,
	}
}

func (d *DataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data model

	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	// Zero asks the cloud for everything, which is what a null lines means.
	contents, err := d.Provider.Instances.ConsoleOutput(ctx, data.Ref(), int(data.Lines.ValueInt64()))
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Compute("Unable to read the instance's console output", err)...)

		return
	}

	data.Contents = types.StringValue(contents)
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
