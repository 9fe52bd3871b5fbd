// Package regionimage is what the resources of region's images (unikorn_snapshot,
// unikorn_image) share: region reads and deletes an image within its organization's
// view of its region, which an ID alone does not name, so their Read and Delete are not
// the skeleton's, and are said here once, with what else the two say alike: the
// resource's type, its life, and the attributes every image has.
package regionimage

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// PathID is the attribute of an image's ID, which Foreign's diagnostics are about.
var PathID = path.Root("id")

// Model is the state of an image resource.
type Model interface {
	family.Model
	// Ref locates the image; its region is empty for an image only just imported.
	Ref() image.Ref
}

// Common is the state every image resource has, which its model embeds: the
// attributes Attributes makes, and where the image is.
type Common struct {
	family.Metadata
	family.Timed

	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	RegionID       types.String `tfsdk:"region_id"`
	CreationTime   types.String `tfsdk:"creation_time"`
}

// Keys are the image's ID: region's image IDs are unique.
func (c *Common) Keys() (types.String, types.String) { return c.OrganizationID, c.ID }

// Ref locates the image: region reads and deletes it in its organization and region.
func (c *Common) Ref() image.Ref {
	return image.Ref{ID: c.ID.ValueString(), OrganizationID: c.OrganizationID.ValueString(), RegionID: c.RegionID.ValueString()}
}

// SetImage fills the state every image has from region's image. A description or tags
// left out of the configuration stay null while region holds none (see
// family.Metadata.Set).
func (c *Common) SetImage(ctx context.Context, read *image.Image, diags *diag.Diagnostics) {
	c.Set(ctx, read.Name, read.Description, read.Tags, diags)
	c.ID = types.StringValue(read.ID)
	c.OrganizationID = types.StringValue(read.OrganizationID)
	c.RegionID = types.StringValue(read.RegionID)
	c.CreationTime = types.StringValue(read.CreationTime.UTC().Format(time.RFC3339))
}

// Resource is an image resource: the skeleton, with region's Read, Update and Delete.
type Resource[M Model] struct {
	family.Resource[image.Image, M]

	// Foreign says why an imported image is not this resource's to manage (a
	// diagnostic), nil when it is.
	Foreign func(*image.Image) diag.Diagnostic
}

// New is the image resource of Terraform type name: set fills its model from region's
// image, and foreign refuses the imports of images it cannot manage. Timeout bounds a
// create and a delete, which waits out the instances still booted from the image.
func New[M Model](name, noun string, timeout time.Duration, newModel func() M,
	set func(context.Context, M, *image.Image, *diag.Diagnostics), foreign func(*image.Image) diag.Diagnostic,
) Resource[M] {
	return Resource[M]{
		Resource: family.Resource[image.Image, M]{
			Base: family.Base{Type: family.Type{
				Name: name, Noun: noun, Service: "region", Scope: family.Global,
				Timeout: timeout, Diagnose: diagnostic.Image,
			}},
			// Region reads and deletes an image in its region, which an ID alone does
			// not name: Read and Delete are this type's, and Object has no Read or Remove.
			Object: family.Object[image.Image, M]{
				New: newModel,
				Set: set,
				// A failed image is being deleted, or of no use: the plan replaces it.
				Lifecycle: func(read *image.Image) (time.Time, bool) { return read.CreationTime, read.Leaving() },
			},
		},
		Foreign: foreign,
	}
}

// Read refreshes the state; only region's 404, lasting past its read lag, removes the
// image from it. An import knows only the image's ID: the image is looked for in each
// of the organization's regions, and refused when Foreign says this resource cannot
// manage it.
func (r *Resource[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state := r.Object.New()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() ||
		!r.Provider.Refreshable(r.Noun, state.Ref().ID, &resp.Diagnostics) {
		return
	}

	ref := state.Ref()
	imported := ref.RegionID == ""

	var (
		found *image.Image
		err   error
	)

	if imported {
		organizationID, _ := state.Keys()
		if ref.OrganizationID = r.Organization(organizationID, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}

		found, err = r.Provider.Images.Find(ctx, ref.OrganizationID, ref.ID)
	} else {
		found, err = r.Provider.Images.Read(ctx, ref)
	}

	switch {
	case err != nil:
		resp.Diagnostics.Append(r.Failed("read", err)...)

		return
	case found == nil:
		// Imported or not: removed, Terraform says what that means (for an import,
		// "Cannot import non-existent remote object"), as for every importable type.
		resp.State.RemoveResource(ctx)

		return
	case imported:
		if refused := r.Foreign(found); refused != nil {
			resp.Diagnostics.Append(refused)

			return
		}
	}

	r.Save(ctx, state, found, family.Refreshed(resp))
}

// Update is never called with a change region holds, every such attribute replaces; it
// carries over the state of an apply that changed nothing region holds (the timeouts,
// and an imported image's URI).
func (r *Resource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.Append(resp.State.Set(ctx, req.Plan.Raw)...)
}

// Delete deletes the image and waits until region answers 404 for it; one already gone
// is deleted. Region refuses while instances boot from it, and the diagnostic names
// them.
func (r *Resource[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state := r.Object.New()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() || !r.Reachable("delete", &resp.Diagnostics) {
		return
	}

	ctx, cancel := r.Within(ctx, state.Limits().Delete, &resp.Diagnostics)
	defer cancel()

	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	if err := r.Provider.Images.Delete(ctx, state.Ref(), created); err != nil {
		resp.Diagnostics.Append(diagnostic.Held("Unable to delete the "+r.Noun, err, r.Diagnose)...)
	}
}

// Attributes are those every image resource has, to which each adds its own: the
// timeouts, ID, name, description, tags and creation time. tagsNote follows "Names in
// Unikorn's reserved prefixes (`*.unikorn-cloud.org`) are refused" in the tags'
// description.
func Attributes(ctx context.Context, tagsNote string, own map[string]schema.Attribute) map[string]schema.Attribute {
	known := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}

	attributes := map[string]schema.Attribute{
		"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Delete: true}),
		"id": schema.StringAttribute{
			Computed: true, MarkdownDescription: "ID of the image.", PlanModifiers: known,
		},
		"name":        nameAttribute(),
		"description": descriptionAttribute(),
		"tags": schema.MapAttribute{
			Optional: true, ElementType: types.StringType,
			PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			Validators:    []validator.Map{validators.TagNames()},
			MarkdownDescription: "Tags of the image, by name. Names in Unikorn's reserved prefixes " +
				"(`*.unikorn-cloud.org`) are refused" + tagsNote + ". Changing them replaces the image.",
		},
		"creation_time": schema.StringAttribute{
			Computed: true, PlanModifiers: known,
			MarkdownDescription: "When the image was made (RFC 3339).",
		},
	}

	for name, attribute := range own {
		attributes[name] = attribute
	}

	return attributes
}

// nameAttribute is an image's name, refused at plan as region refuses it.
func nameAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators: []validator.String{validators.Name("image")},
		MarkdownDescription: "Name of the image: " + validators.NameRule + ". Image names need not be unique. " +
			"Changing it replaces the image.",
	}
}

// descriptionAttribute is an image's description, which region does not keep: it stays
// in the schema, always null, so that a configuration setting it is told why at plan
// rather than failing after apply.
func descriptionAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators: []validator.String{validators.ImageDescription()},
		MarkdownDescription: "Not to be set: Unikorn keeps no description of an image, so a value is refused at plan. " +
			"Say what the image is in `tags`.",
	}
}
