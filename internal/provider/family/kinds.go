package family

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// Ephemeral is DataSource for an ephemeral resource: embedded, it answers Metadata and
// Configure as Terraform asks them of an ephemeral resource. Terraform opens one while
// it plans too, so its Open decides itself what an unknown configuration gives.
type Ephemeral struct {
	DataSource
}

func (e *Ephemeral) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = e.Name
}

func (e *Ephemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.keep(req.ProviderData, &resp.Diagnostics)
}

// Action is DataSource for an action: embedded, it answers Metadata and Configure as
// Terraform asks them of an action, and Begin starts its Invoke.
type Action struct {
	DataSource
}

func (a *Action) Metadata(_ context.Context, _ action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = a.Name
}

func (a *Action) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.keep(req.ProviderData, &resp.Diagnostics)
}

// Begin is DataSource's Begin for an action, which Terraform invokes when it applies,
// where the provider's configuration is always known.
func (a *Action) Begin(ctx context.Context, config tfsdk.Config, m any, diags *diag.Diagnostics) bool {
	diags.Append(config.Get(ctx, m)...)

	return !diags.HasError() && a.Provider.Reachable(a.Looks, providerdata.RemedyApply, diags)
}

// keep keeps the provider's data, once Terraform has configured it (before, a
// validation sees none).
func (d *DataSource) keep(providerData any, diags *diag.Diagnostics) {
	if providerData != nil {
		d.Provider = providerdata.From(providerData, diags)
	}
}
