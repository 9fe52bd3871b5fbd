package instance

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ datasource.DataSource                     = (*DataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*DataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*DataSource)(nil)
)

// DataSource is the unikorn_compute_instance data source: one instance, by ID or by
// network and name.
type DataSource struct {
	family.DataSource
}

// NewDataSource returns the data source for the provider to serve.
func NewDataSource() datasource.DataSource {
	return &DataSource{family.DataSource{Name: TypeName, Looks: "read the instance"}}
}

func (d *DataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(name string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: observedDescription(name, "")}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up one compute instance, by `id` or by `network_id` and `name`, whether or not " +
			"this configuration manages it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: observedDescription("id", "Give either this or `network_id` and `name`."),
				Validators:          []validator.String{validators.UUID()},
			},
			"network_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: observedDescription("network_id", "With `name`, an alternative to `id`."),
				Validators:          []validator.String{validators.UUID()},
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: observedDescription("name", "With `network_id`, an alternative to `id`."),
				Validators:          []validator.String{validators.Name("instance")},
			},
			"flavor_id":                    computed("flavor_id"),
			"image_id":                     computed("image_id"),
			"ssh_certificate_authority_id": computed("ssh_certificate_authority_id"),
			"security_group_ids": schema.SetAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: observedDescription("security_group_ids", ""),
			},
			"public_ip": schema.BoolAttribute{Computed: true, MarkdownDescription: observedDescription("public_ip", "")},
			"allowed_source_addresses": schema.SetAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: observedDescription("allowed_source_addresses", ""),
			},
			"volume_ids": schema.SetAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: observedDescription("volume_ids", ""),
			},
			"volume_attachments": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: observedDescription("volume_attachments", ""),
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"device": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionAttachmentDevice},
					"status": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionAttachmentStatus},
				}},
			},
			"description": computed("description"),
			"tags": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: observedDescription("tags", ""),
			},
			"organization_id":     computed("organization_id"),
			"project_id":          computed("project_id"),
			"region_id":           computed("region_id"),
			"private_ip":          computed("private_ip"),
			"public_ip_address":   computed("public_ip_address"),
			"mac_address":         computed("mac_address"),
			"power_state":         computed("power_state"),
			"provisioning_status": computed("provisioning_status"),
			"health_status":       computed("health_status"),
			"creation_time":       computed("creation_time"),
		},
	}
}

func (d *DataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return append(family.ByIDOrName("name"),
		datasourcevalidator.RequiredTogether(path.MatchRoot("network_id"), path.MatchRoot("name")))
}

func (d *DataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data observed

	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	ref := data.ref()

	var instance *compute.Instance

	var err error
	if data.ID.IsNull() {
		instance, err = d.Provider.Instances.Lookup(ctx, ref, data.Name.ValueString())
	} else {
		instance, err = d.Provider.Instances.Get(ctx, ref)
	}

	switch {
	case errors.Is(err, compute.ErrNotFound):
		// By name, the instance is looked for on its network, where names are unique.
		selector := cloud.Selector{ID: ref.ID}
		if data.ID.IsNull() {
			selector = cloud.Selector{Name: data.Name.ValueString(), NetworkID: ref.NetworkID}
		}

		resp.Diagnostics.Append(diagnostic.Lookup("instance", nil, &cloud.LookupError{Kind: "instance", Selector: selector}))

		return
	case err != nil:
		resp.Diagnostics.Append(diagnostic.Compute("Unable to read the instance", err)...)

		return
	}

	data.setFrom(ctx, instance, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
