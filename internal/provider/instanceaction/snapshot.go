package instanceaction

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceref"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// SnapshotTypeName is the snapshot action's Terraform type.
const SnapshotTypeName = "unikorn_compute_instance_snapshot"

var (
	_ action.Action              = (*Snapshot)(nil)
	_ action.ActionWithConfigure = (*Snapshot)(nil)
)

// Snapshot is the unikorn_compute_instance_snapshot action.
type Snapshot struct {
	family.Action
}

// NewSnapshot returns the action for the provider to serve.
func NewSnapshot() action.Action {
	return &Snapshot{family.Action{DataSource: family.DataSource{Name: SnapshotTypeName, Looks: "snapshot the instance"}}}
}

type snapshotModel struct {
	instanceref.Model
	waiting

	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Tags        types.Map    `tfsdk:"tags"`
}

func (a *Snapshot) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	attributes := instanceref.ActionAttributes()
	maps.Copy(attributes, map[string]schema.Attribute{
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the image: " + validators.NameRule + ". Image names need not be unique.",
			Validators:          []validator.String{validators.Name("image")},
		},
		"description": schema.StringAttribute{
			Optional:   true,
			Validators: []validator.String{validators.ImageDescription()},
			MarkdownDescription: "Not to be set: Unikorn keeps no description of an image, so a value is refused at plan. " +
				"Say what the image is in `tags`.",
		},
		"tags": schema.MapAttribute{
			Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Tags of the image. Tags named `compute.unikorn-cloud.org:…` are dropped: " +
				"the provider sets `" + compute.SnapshotInstanceIDTag + "` to the instance's ID itself, so " +
				"that the image's origin cannot be forged, and Unikorn adds `images.unikorn-cloud.org:source = snapshot`.",
		},
		"timeout": timeoutAttribute("the image to be ready"),
	})

	resp.Schema = schema.Schema{
		MarkdownDescription: "Makes an image of a compute instance's disk and waits until the image is `ready`, " +
			"reporting its ID and state as it goes. The image belongs to the instance's organization; find it " +
			"with the `unikorn_images` data source's `instance_id` filter and boot new instances from it. It is " +
			"not managed by Terraform: delete it in Unikorn when it is no longer needed. For an image Terraform " +
			"manages, use the `unikorn_snapshot` resource.\n\n" +
			"Snapshot a stopped instance (see the `unikorn_compute_instance_power` action) for a consistent disk.",
		Attributes: attributes,
	}
}

func (a *Snapshot) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var data snapshotModel

	invoke(ctx, &a.Action, req, resp, &data, func(ctx context.Context, report *reporter) {
		request := compute.SnapshotRequest{Name: data.Name.ValueString(), Description: data.Description.ValueString()}
		if resp.Diagnostics.Append(data.Tags.ElementsAs(ctx, &request.Tags, false)...); resp.Diagnostics.HasError() {
			return
		}

		if _, err := a.Provider.Instances.Snapshot(ctx, data.Ref(), request, report.progress); err != nil {
			resp.Diagnostics.Append(diagnostic.Image("Unable to snapshot the instance", err)...)
		}
	})
}
