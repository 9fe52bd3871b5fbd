package kubernetes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// NewListResource returns the unikorn_kubernetes_cluster list resource.
func NewListResource() list.ListResource {
	return &listing.Resource[kubernetes.Cluster, family.Place]{
		Base:        listing.Base{TypeName: TypeName, Nouns: "Kubernetes clusters", Diagnose: diagnostic.Kubernetes},
		Description: listing.Describe("Kubernetes clusters") + " What an import cannot know (`api`, `networking`) is left out.",
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only clusters of this project; without it, every project of the organization " +
					"the token may read is searched.",
				Validators: []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Only clusters of this region.",
				Validators: []validator.String{validators.UUID()},
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, config *family.Place, organizationID string,
			_ *diag.Diagnostics,
		) ([]kubernetes.Cluster, error) {
			return provider.Kubernetes.List(ctx, organizationID, config.ProjectID.ValueString(), config.RegionID.ValueString())
		},
		Show: func(c *kubernetes.Cluster) listing.Shown {
			return listing.InOrganization(c.Metadata.Name, c.Metadata.OrganizationID, c.Metadata.ID, c.Metadata.DeletionTime != nil)
		},
		State: func(ctx context.Context, c *kubernetes.Cluster, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// What an import reads: the optional attributes the cluster does not use,
			// and what the service never shows, are unset.
			state := &resourceModel{
				clusterModel: clusterModel{
					Metadata: family.UnsetMetadata(), WorkloadPools: types.MapNull(poolType),
					AutoUpgrade: types.ObjectNull(autoUpgradeType.AttrTypes),
				},
				API: types.ObjectNull(apiType.AttrTypes), Networking: types.ObjectNull(networkingType.AttrTypes),
			}
			state.setKept(ctx, c, diags)

			return state, &state.Timeouts
		},
	}
}
