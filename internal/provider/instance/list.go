package instance

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// listModel is the `config` block of a list block: the filters.
type listModel struct {
	family.Place

	NetworkID types.String `tfsdk:"network_id"`
	Tags      types.Map    `tfsdk:"tags"`
}

// NewListResource returns the unikorn_compute_instance list resource: `terraform
// query` finds instances, typically to import them with generated configuration.
func NewListResource() list.ListResource {
	return &listing.Resource[*compute.Instance, listModel]{
		Base: listing.Base{TypeName: TypeName, Nouns: "instances", Diagnose: diagnostic.Compute},
		Description: "Finds compute instances for `terraform query`, to review them or to generate " +
			"configuration that imports them. Every filter narrows the search; without any, it finds every " +
			"instance of the organization, in every project the token can see. Each result is named " +
			"`<name> (<id>)` and carries the instance's identity. Instances that are being deleted are " +
			"left out, and an instance that more than one server claims is reported as a warning instead of " +
			"a result, because it cannot be imported until the extra servers are removed.",
		Attributes: map[string]schema.Attribute{
			"organization_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Organization to search. Defaults to the provider's `organization_id` " +
					"(or `UNIKORN_ORGANIZATION_ID`).",
				Validators: []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only instances of this project. Unlike look-ups, the search does not " +
					"default to the provider's `project_id`: without it, every project the token can see is searched.",
				Validators: []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only instances in this region.",
				Validators:          []validator.String{validators.UUID()},
			},
			"network_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only instances on this network.",
				Validators:          []validator.String{validators.UUID()},
			},
			"tags": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Only instances that carry every one of these tags with exactly these values. " +
					"Names under a `*.unikorn-cloud.org` prefix are reserved by Unikorn and rejected.",
				Validators: []validator.Map{validators.TagNames()},
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, config *listModel, organizationID string,
			diags *diag.Diagnostics,
		) ([]*compute.Instance, error) {
			query := compute.ListQuery{
				OrganizationID: organizationID,
				ProjectID:      config.ProjectID.ValueString(),
				RegionID:       config.RegionID.ValueString(),
				NetworkID:      config.NetworkID.ValueString(),
			}

			if diags.Append(config.Tags.ElementsAs(ctx, &query.Tags, false)...); diags.HasError() {
				return nil, nil
			}

			found, err := provider.Instances.List(ctx, query)
			if err != nil {
				return nil, err
			}

			// Warnings carry no identity, so Terraform shows them without counting
			// them as results.
			for _, conflict := range found.Conflicts {
				diags.Append(diagnostic.InstanceLeftOut(conflict))
			}

			return found.Instances, nil
		},
		// The façade leaves out instances being deleted.
		Show: func(instance **compute.Instance) listing.Shown {
			return listing.Shown{
				Name: (*instance).Spec.Name, ID: (*instance).ID,
				Identity: identityModel{
					ID:             types.StringValue((*instance).ID),
					OrganizationID: types.StringValue((*instance).OrganizationID),
					ProjectID:      types.StringValue((*instance).ProjectID),
				},
			}
		},
		State: func(ctx context.Context, instance **compute.Instance, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// What only a configuration knows (user data, timeouts) is null, so that
			// generated configuration leaves it out.
			listed := &model{
				observed: observed{
					Metadata:               family.UnsetMetadata(),
					SecurityGroupIDs:       types.SetNull(types.StringType),
					AllowedSourceAddresses: types.SetNull(types.StringType),
					VolumeIDs:              types.SetNull(types.StringType),
				},
				UserData:          types.StringNull(),
				UserDataWO:        types.StringNull(),
				UserDataWOVersion: types.Int64Null(),
			}
			listed.setFrom(ctx, *instance, diags)

			return listed, &listed.Timeouts
		},
	}
}
