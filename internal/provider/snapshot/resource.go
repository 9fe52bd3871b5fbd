// Package snapshot is the unikorn_snapshot resource: an image made from a compute
// instance whose life Terraform manages, from the snapshot to its deletion.
package snapshot

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/regionimage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// TypeName is the resource's Terraform type.
const TypeName = "unikorn_snapshot"

// defaultTimeout bounds a snapshot, which copies a whole disk, and a delete, which
// waits out the instances still booted from the image.
const defaultTimeout = 30 * time.Minute

var (
	_ resource.ResourceWithConfigure   = (*snapshotResource)(nil)
	_ resource.ResourceWithImportState = (*snapshotResource)(nil)
	_ resource.ResourceWithIdentity    = (*snapshotResource)(nil)
)

// NewResource returns the unikorn_snapshot resource.
func NewResource() resource.Resource {
	return &snapshotResource{regionimage.New(TypeName, "snapshot image", defaultTimeout,
		func() *model { return &model{} }, setImage, notSnapshot)}
}

// notSnapshot refuses the import of an image not made from an instance.
func notSnapshot(found *image.Image) diag.Diagnostic {
	if found.InstanceID != "" {
		return nil
	}

	return diagnostic.AttributeError(regionimage.PathID, "Not a snapshot image",
		"Image "+found.ID+" ("+found.Name+") was not made from a compute instance: it carries no "+
			compute.SnapshotInstanceIDTag+" tag, so this resource cannot manage it.",
		"Import only images made from instances; read other images with the unikorn_images data source.")
}

// snapshotResource manages an image made from an instance. Region cannot change an
// image, so every change replaces it.
type snapshotResource struct {
	regionimage.Resource[*model]
}

type model struct {
	regionimage.Common

	InstanceID types.String `tfsdk:"instance_id"`
	Status     types.String `tfsdk:"status"`
}

func (r *snapshotResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	known := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "An image made from a compute instance's disk, whose life Terraform manages: it is " +
			"made (and waited for until `ready`) on create and deleted on destroy. Boot new instances from it " +
			"with `image_id = unikorn_snapshot.NAME.id`. Region cannot change an image, so every change replaces " +
			"it with a new snapshot of the instance as it is then.\n\n" +
			"Snapshot a stopped instance (see the `unikorn_compute_instance_power` action) for a consistent disk. " +
			"For an image made once and not managed by Terraform, use the `unikorn_compute_instance_snapshot` action.",
		Attributes: regionimage.Attributes(ctx, ": Unikorn sets `"+compute.SnapshotInstanceIDTag+
			"` to the instance's ID itself, so that the image's origin cannot be forged", map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Validators: []validator.String{validators.UUID()},
				MarkdownDescription: "ID of the compute instance to snapshot, e.g. `unikorn_compute_instance.web.id`. " +
					"It is looked for in the provider's `organization_id` and `project_id` where those are set. " +
					"Changing it replaces the image.",
			},
			"organization_id": schema.StringAttribute{
				Computed: true, PlanModifiers: known,
				MarkdownDescription: "Organization that owns the image: the instance's.",
			},
			"region_id": schema.StringAttribute{
				Computed: true, PlanModifiers: known,
				MarkdownDescription: "Region of the image: the instance's.",
			},
			"status": schema.StringAttribute{
				Computed: true, PlanModifiers: known,
				MarkdownDescription: "State of the image: `ready` once made; `failed` if the cloud could not make it.",
			},
		}),
	}
}

func (r *snapshotResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan model

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*image.Image, error) {
		request := compute.SnapshotRequest{
			Name: plan.Name.ValueString(), Description: plan.Description.ValueString(), Tags: plan.TagMap(ctx, diags),
		}

		if diags.HasError() {
			return nil, nil
		}

		// Each back end finds the instance its own way; reading it first gives the image's
		// organization and region, which region's image API needs, whichever made it.
		instance, err := r.Provider.Instances.Get(ctx, compute.Ref{
			ID: plan.InstanceID.ValueString(), OrganizationID: r.Provider.OrganizationID, ProjectID: r.Provider.ProjectID,
		})
		if err != nil {
			diags.Append(r.Diagnose("Unable to read the instance to snapshot", err)...)

			return nil, nil
		}

		progress := func(message string) { tflog.Info(ctx, message) }

		// An image that exists is saved whatever went wrong, so that Terraform keeps track
		// of it (and, the create having failed, replaces it next time).
		return r.Provider.Images.Snapshot(ctx, compute.SnapshotOf(r.Provider.Instances, instance, request, progress), progress)
	})
}

// setImage fills the model from region's image (see regionimage.Common.SetImage).
func setImage(ctx context.Context, m *model, read *image.Image, diags *diag.Diagnostics) {
	m.SetImage(ctx, read, diags)
	m.InstanceID = types.StringValue(read.InstanceID)
	m.Status = types.StringValue(read.Status)
}
