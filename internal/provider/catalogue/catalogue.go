// Package catalogue serves the read-only look-ups of what a Unikorn organization can
// use: its regions, and each region's flavors and images, narrowed by filters.
package catalogue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// configured is embedded by every data source of the package to receive the
// provider's data.
type configured struct {
	provider *providerdata.Data
}

func (c *configured) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	c.provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
}

// organizationIDAttribute is the optional scope every catalogue look-up takes.
func organizationIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "ID of the organization whose view of the catalogue to read. " +
			"Defaults to the provider's `organization_id`.",
		Validators: []validator.String{validators.UUID()},
	}
}

// regionIDAttribute is the region a flavor or image look-up reads.
func regionIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "ID of the region to read, as listed by the `unikorn_regions` data source.",
		Validators:          []validator.String{validators.UUID()},
	}
}
