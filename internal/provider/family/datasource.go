package family

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// DataSource is what every data source has: its type name, what it looks up, and the
// provider's data once Terraform has configured it. Embedded, it answers Metadata and
// Configure, and Begin starts its Read.
type DataSource struct {
	Name string
	// Looks says what a read does, in diagnostics: "look the network up".
	Looks string

	Provider *providerdata.Data
}

func (d *DataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = d.Name
}

func (d *DataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData != nil {
		d.Provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}

// Begin is what every Read starts with: the configuration into m, and whether Unikorn
// can be reached to look it up. It reports false, with diagnostics, when the read
// cannot go on.
func (d *DataSource) Begin(ctx context.Context, config tfsdk.Config, m any, diags *diag.Diagnostics) bool {
	diags.Append(config.Get(ctx, m)...)

	return !diags.HasError() && d.Provider.Reachable(d.Looks, providerdata.RemedyDataSource, diags)
}

// Organization is the organization value names, or the provider's.
func (d *DataSource) Organization(value types.String, diags *diag.Diagnostics) string {
	return d.Provider.Organization(value, PathOrganizationID, diags)
}
