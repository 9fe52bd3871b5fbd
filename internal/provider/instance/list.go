package instance

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ list.ListResource              = (*ListResource)(nil)
	_ list.ListResourceWithConfigure = (*ListResource)(nil)
)

// ListResource is the unikorn_compute_instance list resource: `terraform query`
// finds instances, typically to import them with generated configuration.
type ListResource struct {
	listing.Base
}

// NewListResource returns the list resource for the provider to serve.
func NewListResource() list.ListResource {
	return &ListResource{listing.Base{TypeName: TypeName, Nouns: "instances", Diagnose: diagnostic.Compute}}
}

// listModel is the `config` block of a list block: the filters.
type listModel struct {
	family.Place

	NetworkID types.String `tfsdk:"network_id"`
	Tags      types.Map    `tfsdk:"tags"`
}

func (l *ListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds compute instances for `terraform query`, to review them or to generate " +
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
	}
}

func (l *ListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var (
		config    listModel
		conflicts []*compute.ConsistencyError
	)

	listing.Stream(ctx, &l.Base, req, stream, &config,
		func(ctx context.Context, organizationID string, diags *diag.Diagnostics) ([]*compute.Instance, error) {
			query := compute.ListQuery{
				OrganizationID: organizationID,
				ProjectID:      config.ProjectID.ValueString(),
				RegionID:       config.RegionID.ValueString(),
				NetworkID:      config.NetworkID.ValueString(),
			}

			if diags.Append(config.Tags.ElementsAs(ctx, &query.Tags, false)...); diags.HasError() {
				return nil, nil
			}

			found, err := l.Provider.Instances.List(ctx, query)
			if err != nil {
				return nil, err
			}

			conflicts = found.Conflicts

			return found.Instances, nil
		},
		// The façade leaves out instances being deleted.
		func(**compute.Instance) bool { return true },
		func(instance **compute.Instance) list.ListResult { return listResult(ctx, req, *instance) })

	// Warnings carry no identity, so Terraform shows them without counting them as
	// results; they come first so that the limit never hides them.
	if results := stream.Results; len(conflicts) > 0 {
		stream.Results = func(push func(list.ListResult) bool) {
			for _, conflict := range conflicts {
				warning := list.ListResult{}
				warning.Diagnostics.AddWarning("Instance left out: more than one server claims it", conflict.Error())

				if !push(warning) {
					return
				}
			}

			results(push)
		}
	}
}

// listResult shows one instance as the resource's Read would: the same identity and,
// when Terraform asks for it, the same state. What only a configuration knows (user
// data, timeouts) is null, so that generated configuration leaves it out.
func listResult(ctx context.Context, req list.ListRequest, instance *compute.Instance) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = fmt.Sprintf("%s (%s)", instance.Spec.Name, instance.ID)

	listed := model{
		observed: observed{
			Metadata:               family.UnsetMetadata(),
			SecurityGroupIDs:       types.SetNull(types.StringType),
			AllowedSourceAddresses: types.SetNull(types.StringType),
		},
		UserData:          types.StringNull(),
		UserDataWO:        types.StringNull(),
		UserDataWOVersion: types.Int64Null(),
	}
	listed.setFrom(ctx, instance, &result.Diagnostics)

	result.Diagnostics.Append(result.Identity.Set(ctx, listed.identity())...)

	if !req.IncludeResource {
		return result
	}

	listed.Timeouts = listing.NullTimeouts(ctx, req.ResourceSchema, &result.Diagnostics)

	if !result.Diagnostics.HasError() {
		result.Diagnostics.Append(result.Resource.Set(ctx, &listed)...)
	}

	return result
}
