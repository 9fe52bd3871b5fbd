// Package regionimage is what the resources of region's images (unikorn_snapshot,
// unikorn_image) share: region reads and deletes an image within its organization's
// view of its region, which an ID alone does not name, so their Read and Delete are not
// the skeleton's, and are said here once.
package regionimage

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// Model is the state of an image resource.
type Model interface {
	family.Model
	// Ref locates the image; its region is empty for an image only just imported.
	Ref() compute.ImageRef
}

// Read refreshes the state; only region's 404, lasting past its read lag, removes the
// image from it. An import knows only the image's ID: the image is looked for in each
// of the organization's regions, and refused when foreign says this resource cannot
// manage it (a diagnostic that says why, nil when it can).
func Read[M Model](ctx context.Context, r *family.Resource[compute.Image, M], req resource.ReadRequest,
	resp *resource.ReadResponse, foreign func(*compute.Image) diag.Diagnostic,
) {
	state := r.Object.New()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() ||
		!r.Provider.Refreshable(r.Noun, state.Ref().ID, &resp.Diagnostics) {
		return
	}

	ref := state.Ref()
	imported := ref.RegionID == ""

	var (
		image *compute.Image
		err   error
	)

	if imported {
		organizationID, _ := state.Keys()
		if ref.OrganizationID = r.Organization(organizationID, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}

		image, err = r.Provider.Images.FindImage(ctx, ref.OrganizationID, ref.ID)
	} else {
		image, err = r.Provider.Images.ReadImage(ctx, ref)
	}

	switch {
	case err != nil:
		resp.Diagnostics.Append(r.Failed("read", err)...)

		return
	case image == nil:
		// Imported or not: removed, Terraform says what that means (for an import,
		// "Cannot import non-existent remote object"), as for every importable type.
		resp.State.RemoveResource(ctx)

		return
	case imported:
		if refused := foreign(image); refused != nil {
			resp.Diagnostics.Append(refused)

			return
		}
	}

	r.Save(ctx, state, image, family.Saved{State: &resp.State, Identity: resp.Identity, Private: resp.Private, Diags: &resp.Diagnostics})
}

// Delete deletes the image and waits until region answers 404 for it; one already gone
// is deleted. Region refuses while instances boot from it, and the diagnostic names
// them.
func Delete[M Model](ctx context.Context, r *family.Resource[compute.Image, M], req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state := r.Object.New()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() || !r.Reachable("delete", &resp.Diagnostics) {
		return
	}

	ctx, cancel := r.Within(ctx, state.Limits().Delete, &resp.Diagnostics)
	defer cancel()

	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	if err := r.Provider.Images.DeleteImage(ctx, state.Ref(), created); err != nil {
		resp.Diagnostics.Append(diagnostic.Held("Unable to delete the "+r.Noun, err, r.Diagnose)...)
	}
}

// NameAttribute is an image's name, refused at plan as region refuses it.
func NameAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators: []validator.String{validators.Name("image")},
		MarkdownDescription: "Name of the image: " + validators.NameRule + ". Image names need not be unique. " +
			"Changing it replaces the image.",
	}
}

// DescriptionAttribute is an image's description: region cannot change it.
func DescriptionAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		MarkdownDescription: "Description of the image. Changing it replaces the image.",
	}
}
