package kubernetes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ datasource.DataSourceWithConfigure        = (*dataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*dataSource)(nil)
)

// NewDataSource returns the unikorn_kubernetes_cluster data source.
func NewDataSource() datasource.DataSource {
	return &dataSource{family.DataSource{Name: TypeName, Looks: "look the Kubernetes cluster up"}}
}

// dataSource looks a cluster up by ID, or by a name that exactly one cluster of the
// project has.
type dataSource struct {
	family.DataSource
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}
	count := func(description string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: description}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up a Kubernetes cluster by `id`, or by `name` within a project. " + descriptionCluster +
			" Its API settings and networking are not here: the service never shows them.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true, MarkdownDescription: descriptionID + " Give either this or `name`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionName + " A look-up by name fails unless exactly one cluster of the project has it.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionOrganizationID + " The service lists clusters by organization, so a " +
					"look-up searches it by ID or name; defaults to the provider's `organization_id`.",
				Validators: []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionProjectID + " A look-up by name searches it; defaults to the " +
					"provider's `project_id`. With `id` it is read from the cluster.",
				Validators: []validator.String{validators.UUID()},
			},
			"description":        computed(descriptionDescription + " Null when it has none."),
			"tags":               schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionTags},
			"region_id":          computed(descriptionRegionID),
			"version":            computed(descriptionVersion),
			"cluster_manager_id": computed(descriptionManagerID),
			"control_plane": schema.SingleNestedAttribute{
				Computed: true, MarkdownDescription: descriptionControlPlane,
				Attributes: map[string]schema.Attribute{
					"flavor_id": computed(descriptionControlPlaneFlavor),
					"replicas":  count(descriptionControlPlaneReplicas),
				},
			},
			"workload_pools": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: descriptionPools,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"flavor_id":     computed(descriptionPoolFlavor),
					"replicas":      count(descriptionPoolReplicas),
					"min_replicas":  count(descriptionPoolMinReplicas + " Null for a pool of a fixed size."),
					"disk_size_gib": count(descriptionPoolDisk),
					"labels":        schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionPoolLabels},
				}},
			},
			"auto_upgrade": schema.SingleNestedAttribute{
				Computed: true, MarkdownDescription: descriptionAutoUpgrade + " Null where the platform's default applies.",
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{Computed: true, MarkdownDescription: descriptionAutoUpgradeEnabled},
					"days_of_week": schema.MapNestedAttribute{
						Computed: true, MarkdownDescription: descriptionAutoUpgradeDays,
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"start": count(descriptionWindowStart),
							"end":   count(descriptionWindowEnd),
						}},
					},
				},
			},
			"hardware_enablement": schema.BoolAttribute{Computed: true, MarkdownDescription: descriptionHardware},
			"application_bundle":  computed(descriptionBundle),
			"health_status":       computed(descriptionHealth),
			"provisioning_status": computed(descriptionProvisioning),
		},
	}
}

func (d *dataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("name", "project_id")
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data clusterModel
	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	selector := kubernetes.Selector{
		ID: data.ID.ValueString(), OrganizationID: d.Organization(data.OrganizationID, &resp.Diagnostics),
	}

	// An ID names one cluster in its organization, so only a name is searched in a
	// project.
	if selector.ID == "" {
		selector.Name = data.Name.ValueString()
		selector.ProjectID = d.Provider.Project(data.ProjectID, pathProjectID, &resp.Diagnostics)
	}

	if resp.Diagnostics.HasError() {
		return
	}

	cluster, err := d.Provider.Kubernetes.Find(ctx, selector)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Lookup("Kubernetes cluster", nil, err))

		return
	}

	data.setFound(ctx, cluster, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
