package storage

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

var (
	_ datasource.DataSourceWithConfigure        = (*dataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*dataSource)(nil)
)

// NewDataSource returns the unikorn_file_storage data source.
func NewDataSource() datasource.DataSource {
	return &dataSource{family.DataSource{Name: TypeName, Looks: "look the file storage up"}}
}

// dataSource looks file storage up by ID, or by a name that exactly one storage of
// the project has.
type dataSource struct {
	family.DataSource
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up file storage by `id`, or by `name` within a project. " + descriptionStorage,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionID + " Give either this or `name`.",
				Validators:          []validator.String{validators.UUID()},
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionName + " A look-up by name fails unless exactly one file storage " +
					"of the project has it.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionOrganizationID + " A look-up by name searches it; defaults to the " +
					"provider's `organization_id`. With `id` it is read from the storage.",
				Validators: []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionProjectID + " A look-up by name searches it; defaults to the " +
					"provider's `project_id`. With `id` it is read from the storage.",
				Validators: []validator.String{validators.UUID()},
			},
			"description":      computed(descriptionDescription + " Null when it has none."),
			"tags":             schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionTags},
			"region_id":        computed(descriptionRegionID),
			"storage_class_id": computed(descriptionClassID),
			"size_gib":         schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionSizeGiB},
			"root_squash":      schema.BoolAttribute{Computed: true, MarkdownDescription: descriptionRootSquash},
			"attachments": schema.SetAttribute{
				Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionAttachments,
			},
			"snapshot_policies": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: descriptionPolicies,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"interval":     computed(descriptionPolicyInterval),
					"time_of_day":  computed(descriptionPolicyTimeOfDay),
					"day_of_week":  computed(descriptionPolicyDayOfWeek),
					"day_of_month": schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionPolicyDayOfMonth},
					"keep":         schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionPolicyKeep},
				}},
			},
			"default_snapshot_protection": schema.BoolAttribute{Computed: true, MarkdownDescription: descriptionProtection},
			"snapshot_policy_status": schema.MapAttribute{
				Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionPolicyStatus,
			},
			"mounts": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: descriptionMounts,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"mount_source": computed(descriptionMountSource),
					"mount_options": schema.MapAttribute{
						Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionMountOptions,
					},
					"status": computed(descriptionMountStatus),
				}},
			},
			"usage": schema.SingleNestedAttribute{
				Computed: true, MarkdownDescription: descriptionUsage,
				Attributes: map[string]schema.Attribute{
					"capacity_bytes": schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionCapacity},
					"used_bytes":     schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionUsed},
					"updated_at":     computed(descriptionUpdatedAt),
				},
			},
		},
	}
}

func (d *dataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("name", "organization_id", "project_id")
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data storageModel
	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	selector := storage.Selector{ID: data.ID.ValueString()}

	// An ID names one storage wherever it is, so only a name is searched in a scope.
	if selector.ID == "" {
		selector.Name = data.Name.ValueString()
		selector.OrganizationID = d.Organization(data.OrganizationID, &resp.Diagnostics)
		selector.ProjectID = d.Provider.Project(data.ProjectID, pathProjectID, &resp.Diagnostics)
	}

	if resp.Diagnostics.HasError() {
		return
	}

	fs, err := d.Provider.Storage.Find(ctx, selector)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Lookup("file storage", nil, err))

		return
	}

	data.setFound(ctx, fs, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
