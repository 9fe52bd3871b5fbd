package loadbalancing

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

type listConfig struct {
	family.Place

	NetworkID types.String `tfsdk:"network_id"`
	Tags      types.Map    `tfsdk:"tags"`
}

// NewListResource returns the unikorn_load_balancer list resource.
func NewListResource() list.ListResource {
	uuid := []validator.String{validators.UUID()}

	return &listing.Resource[loadbalancing.LoadBalancer, listConfig]{
		Base: listing.Base{TypeName: TypeName, Nouns: "load balancers", Diagnose: diagnostic.LoadBalancing},
		Description: "Finds load balancers for `terraform query`, to review them or to generate configuration " +
			"that imports them. Each result is named `<name> (<id>)` and carries the identity the resource has. Load " +
			"balancers that are being deleted are left out.",
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional: true, Validators: uuid,
				MarkdownDescription: "Only load balancers of this project; without it, every project of the organization " +
					"the token can see is searched.",
			},
			"region_id": schema.StringAttribute{
				Optional: true, Validators: uuid, MarkdownDescription: "Only load balancers in this region.",
			},
			"network_id": schema.StringAttribute{
				Optional: true, Validators: uuid, MarkdownDescription: "Only load balancers on this network.",
			},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Only load balancers that carry every one of these tags with these values.",
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, config *listConfig, organizationID string,
			diags *diag.Diagnostics,
		) ([]loadbalancing.LoadBalancer, error) {
			query := loadbalancing.Query{
				OrganizationID: organizationID,
				ProjectID:      config.ProjectID.ValueString(),
				RegionID:       config.RegionID.ValueString(),
				NetworkID:      config.NetworkID.ValueString(),
				Tags:           map[string]string{},
			}

			if diags.Append(config.Tags.ElementsAs(ctx, &query.Tags, false)...); diags.HasError() {
				return nil, nil
			}

			return provider.LoadBalancers.List(ctx, query)
		},
		Show: func(lb *loadbalancing.LoadBalancer) listing.Shown { return listing.Global(lb.Name, lb.ID, lb.Deleting) },
		State: func(ctx context.Context, lb *loadbalancing.LoadBalancer, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// What an import reads: a configuration that sets none of the optional
			// attributes, so that generated configuration leaves them out.
			state := &resourceModel{model: model{Metadata: family.UnsetMetadata(), Listeners: types.MapNull(listenerType)}}
			state.setKept(ctx, lb, diags)

			return state, &state.Timeouts
		},
	}
}
