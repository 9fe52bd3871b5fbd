package volumes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

// listConfig is the `config` block of a list block: the filters.
type listConfig struct {
	family.Place

	NetworkID types.String `tfsdk:"network_id"`
}

// NewListResource returns the unikorn_volume list resource.
func NewListResource() list.ListResource {
	uuid := []validator.String{validators.UUID()}

	return &listing.Resource[volumes.Volume, listConfig]{
		Base:        listing.Base{TypeName: TypeName, Nouns: "volumes", Diagnose: diagnostic.Volumes},
		Description: listing.Describe("block volumes"),
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional: true, Validators: uuid,
				MarkdownDescription: "Only volumes of this project; without it, every project of the organization the " +
					"token can see is searched.",
			},
			"region_id": schema.StringAttribute{
				Optional: true, Validators: uuid, MarkdownDescription: "Only volumes in this region.",
			},
			"network_id": schema.StringAttribute{
				Optional: true, Validators: uuid, MarkdownDescription: "Only volumes on this network.",
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, config *listConfig, organizationID string,
			_ *diag.Diagnostics,
		) ([]volumes.Volume, error) {
			return provider.Volumes.List(ctx, volumes.Scope{
				OrganizationID: organizationID, ProjectID: config.ProjectID.ValueString(),
				RegionID: config.RegionID.ValueString(), NetworkID: config.NetworkID.ValueString(),
			})
		},
		Show: func(volume *volumes.Volume) listing.Shown { return listing.Project(&volume.Metadata) },
		State: func(ctx context.Context, volume *volumes.Volume, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// What an import reads: the optional attributes the volume does not use are
			// unset, so that generated configuration leaves them out.
			state := &resourceModel{model: model{Metadata: family.UnsetMetadata()}}
			state.setKept(ctx, volume, diags)

			return state, &state.Timeouts
		},
	}
}
