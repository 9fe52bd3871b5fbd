package kubernetes

import (
	"context"
	"slices"

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

var _ datasource.DataSourceWithConfigure = (*versionsDataSource)(nil)

// NewVersionsDataSource returns the unikorn_kubernetes_versions data source.
func NewVersionsDataSource() datasource.DataSource {
	return &versionsDataSource{family.DataSource{Name: VersionsTypeName, Looks: "list the Kubernetes versions"}}
}

// versionsDataSource lists the Kubernetes versions a region offers clusters of.
type versionsDataSource struct {
	family.DataSource
}

type versionsModel struct {
	OrganizationID types.String   `tfsdk:"organization_id"`
	RegionID       types.String   `tfsdk:"region_id"`
	Architecture   types.String   `tfsdk:"architecture"`
	Versions       []types.String `tfsdk:"versions"`
	Latest         types.String   `tfsdk:"latest"`
}

func (d *versionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the Kubernetes versions a region offers clusters of, newest first: those its " +
			"images carry, as the Kubernetes service reads them, in the form a cluster's `version` takes. A region " +
			"that offers none gives an empty list, not an error.",
		Attributes: map[string]schema.Attribute{
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Organization whose images count (the region's own and the organization's); " +
					"defaults to the provider's `organization_id`.",
				Validators: []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Required: true, MarkdownDescription: "Region whose versions are listed.",
				Validators: []validator.String{validators.UUID()},
			},
			"architecture": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Only versions with images of this architecture (`x86_64`, " +
					"`aarch64`): those a cluster whose machines are of it can have.",
				Validators: []validator.String{stringvalidator.OneOf(kubernetes.Architectures...)},
			},
			"versions": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The versions, newest first by semantic version, such as `v1.31.0`.",
			},
			"latest": schema.StringAttribute{
				Computed: true, MarkdownDescription: "The newest version; null when there is none.",
			},
		},
	}
}

func (d *versionsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data versionsModel
	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	organizationID := d.Organization(data.OrganizationID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	versions, err := d.Provider.Kubernetes.Versions(ctx, organizationID, data.RegionID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(diagnostic.APIError("Unable to list the Kubernetes versions", err))

		return
	}

	data.OrganizationID = types.StringValue(organizationID)
	data.Versions = []types.String{}
	data.Latest = types.StringNull()

	for _, version := range versions {
		if architecture := data.Architecture.ValueString(); architecture == "" || slices.Contains(version.Architectures, architecture) {
			data.Versions = append(data.Versions, types.StringValue(version.Version))
		}
	}

	if len(data.Versions) > 0 {
		data.Latest = data.Versions[0]
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
