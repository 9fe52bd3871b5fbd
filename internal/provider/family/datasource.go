package family

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
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

// ByIDOrName is the rule of every look-up of one object: by its ID or by what names it
// (name: "name", or the attribute the family names it by), exactly one of them. Read
// by its ID, the object is read where it is, so an attribute that only narrows the
// search by name (scopes: "organization_id", "network_id") conflicts with the ID.
func ByIDOrName(name string, scopes ...string) []datasource.ConfigValidator {
	validators := []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot(name))}

	for _, scope := range scopes {
		validators = append(validators, datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot(scope)))
	}

	return validators
}
