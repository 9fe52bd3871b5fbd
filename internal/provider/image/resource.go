// Package image is the unikorn_image resource: an image an organization brings into a
// region from the URL of a raw disk image, whose life Terraform manages.
package image

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/regionimage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// TypeName is the resource's Terraform type.
const TypeName = "unikorn_image"

// defaultTimeout bounds an import, which copies a whole disk image over the network,
// and a delete, which waits out the instances still booted from the image.
const defaultTimeout = 60 * time.Minute

var (
	_ resource.ResourceWithConfigure   = (*imageResource)(nil)
	_ resource.ResourceWithImportState = (*imageResource)(nil)
	_ resource.ResourceWithIdentity    = (*imageResource)(nil)
)

// NewResource returns the unikorn_image resource.
func NewResource() resource.Resource {
	return &imageResource{regionimage.New(TypeName, "image", defaultTimeout,
		func() *model { return &model{} }, setImage, aSnapshot)}
}

// aSnapshot refuses the import of a snapshot image, being unikorn_snapshot's.
func aSnapshot(found *image.Image) diag.Diagnostic {
	if found.InstanceID == "" {
		return nil
	}

	return diagnostic.AttributeError(regionimage.PathID, "A snapshot image",
		"Image "+found.ID+" ("+found.Name+") was made from compute instance "+found.InstanceID+
			", so unikorn_image cannot manage it.",
		"Import it as a unikorn_snapshot instead.")
}

// imageResource manages an imported image. Region cannot change an image, so every
// change replaces it.
type imageResource struct {
	regionimage.Resource[*model]
}

type model struct {
	regionimage.Common

	URI              types.String `tfsdk:"uri"`
	Architecture     types.String `tfsdk:"architecture"`
	Virtualization   types.String `tfsdk:"virtualization"`
	OS               *osModel     `tfsdk:"os"`
	SoftwareVersions types.Map    `tfsdk:"software_versions"`
	GPU              *gpuModel    `tfsdk:"gpu"`
	SizeGiB          types.Int64  `tfsdk:"size_gib"`
	State            types.String `tfsdk:"state"`
}

type osModel struct {
	Kernel   types.String `tfsdk:"kernel"`
	Family   types.String `tfsdk:"family"`
	Distro   types.String `tfsdk:"distro"`
	Version  types.String `tfsdk:"version"`
	Variant  types.String `tfsdk:"variant"`
	Codename types.String `tfsdk:"codename"`
}

type gpuModel struct {
	Vendor types.String `tfsdk:"vendor"`
	Driver types.String `tfsdk:"driver"`
	Models []string     `tfsdk:"models"`
}

// The values region's imageCreate accepts (region-v1.20.0: architecture,
// imageVirtualization, osKernel, gpuVendor).
var (
	architectures   = []string{"x86_64", "aarch64"}
	virtualizations = []string{"virtualized", "baremetal", "any"}
	kernels         = []string{"linux"}
	gpuVendors      = []string{"NVIDIA", "AMD"}
)

// uriReplaces replaces the image when its URI changes, except when the state holds
// none: region does not keep an image's URI, so an imported image takes the
// configured one in place.
var uriReplaces = stringplanmodifier.RequiresReplaceIf(
	func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !req.StateValue.IsNull()
	},
	"Changing the URI replaces the image, unless the state has none (an imported image).",
	"Changing the URI replaces the image, unless the state has none (an imported image).")

func (r *imageResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	known := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	oneOf := func(values []string) []validator.String { return []validator.String{stringvalidator.OneOf(values...)} }

	resp.Schema = schema.Schema{
		MarkdownDescription: "An image the organization brings into a region from the URL of a raw disk image, " +
			"whose life Terraform manages: region fetches it on create, and Terraform waits until it is `ready`; " +
			"an import that region marks `failed` is an error, and the failed image is deleted, not left behind. " +
			"Boot instances from it with `image_id = unikorn_image.NAME.id`; while any does, region refuses to " +
			"delete it, and the error names them. Region cannot change an image, so every change replaces it.\n\n" +
			"The URL must serve a raw disk image (not qcow2): region reads its first sector before it accepts " +
			"the import. Images made from instances are `unikorn_snapshot`'s.",
		Attributes: regionimage.Attributes(ctx, "", map[string]schema.Attribute{
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: []validator.String{validators.UUID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				MarkdownDescription: "Organization that owns the image; the provider's `organization_id` when not set. " +
					"Changing it replaces the image.",
			},
			"region_id": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				MarkdownDescription: "Region to import the image into, e.g. `data.unikorn_regions.all.regions[0].id`; instances " +
					"of that region may boot from it. Changing it replaces the image.",
			},
			"uri": schema.StringAttribute{
				Required: true, PlanModifiers: []planmodifier.String{uriReplaces},
				Validators: []validator.String{validators.HTTPURL()},
				MarkdownDescription: "http or https URL of the raw disk image region fetches. Region does not keep " +
					"it: an imported image takes the configured one without a change. Changing it replaces the image.",
			},
			"architecture": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Validators: oneOf(architectures),
				MarkdownDescription: "CPU architecture the image is for: `x86_64` or `aarch64`. Changing it replaces the image.",
			},
			"virtualization": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Validators: oneOf(virtualizations),
				MarkdownDescription: "Machines the image is for: `virtualized`, `baremetal` or `any`. " +
					"Changing it replaces the image.",
			},
			"os": schema.SingleNestedAttribute{
				Required: true, PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				MarkdownDescription: "Operating system of the image, which image look-ups filter on. Changing it replaces the image.",
				Attributes: map[string]schema.Attribute{
					"kernel": schema.StringAttribute{
						Required: true, Validators: oneOf(kernels), MarkdownDescription: "Kernel: `linux`.",
					},
					"family": schema.StringAttribute{
						Required: true, Validators: nonEmpty,
						MarkdownDescription: "Family of operating systems, which usually names the package format, e.g. `debian` or `redhat`.",
					},
					"distro": schema.StringAttribute{
						Required: true, Validators: nonEmpty, MarkdownDescription: "Distribution, e.g. `ubuntu` or `rocky`.",
					},
					"version": schema.StringAttribute{
						Required: true, Validators: nonEmpty, MarkdownDescription: "Version of the distribution, e.g. `24.04`.",
					},
					"variant": schema.StringAttribute{
						Optional: true, Validators: nonEmpty, MarkdownDescription: "Free-form variant, e.g. `server`.",
					},
					"codename": schema.StringAttribute{
						Optional: true, Validators: nonEmpty, MarkdownDescription: "Free-form code name, e.g. `noble`.",
					},
				},
			},
			"software_versions": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
				Validators:    []validator.Map{mapvalidator.SizeAtLeast(1)},
				MarkdownDescription: "Versions of the software installed in the image, by name, each a semantic " +
					"version (e.g. `kubernetes = \"v1.30.2\"`). Changing them replaces the image.",
			},
			"gpu": schema.SingleNestedAttribute{
				Optional: true, PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				MarkdownDescription: "GPU driver installed in the image, if any. Changing it replaces the image.",
				Attributes: map[string]schema.Attribute{
					"vendor": schema.StringAttribute{
						Required: true, Validators: oneOf(gpuVendors), MarkdownDescription: "GPU vendor: `NVIDIA` or `AMD`.",
					},
					"driver": schema.StringAttribute{
						Required: true, Validators: nonEmpty, MarkdownDescription: "Version of the driver, as the vendor numbers it.",
					},
					"models": schema.ListAttribute{
						Optional: true, ElementType: types.StringType, Validators: []validator.List{listvalidator.SizeAtLeast(1)},
						MarkdownDescription: "GPU models the driver supports.",
					},
				},
			},
			"size_gib": schema.Int64Attribute{
				Computed: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
				MarkdownDescription: "Smallest disk, in GiB, an instance booted from the image needs: region tells it once the image is imported.",
			},
			"state": schema.StringAttribute{
				Computed: true, PlanModifiers: known,
				MarkdownDescription: "State of the image: `ready` once imported.",
			},
		}),
	}
}

func (r *imageResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan model

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*image.Image, error) {
		request := image.Import{
			OrganizationID: r.Organization(plan.OrganizationID, diags),
			RegionID:       plan.RegionID.ValueString(),
			Name:           plan.Name.ValueString(), Description: plan.Description.ValueString(),
			Tags: plan.TagMap(ctx, diags),
			URI:  plan.URI.ValueString(),
			Spec: plan.spec(ctx, diags),
		}

		if diags.HasError() {
			return nil, nil
		}

		progress := func(message string) { tflog.Info(ctx, message) }

		// An image that exists is saved whatever went wrong, so that Terraform keeps track
		// of it; a failed import's image is deleted by the import, and none comes back.
		return r.Provider.Images.Import(ctx, request, progress)
	})
}

// spec is the image's description as region's import takes it.
func (m *model) spec(ctx context.Context, diags *diag.Diagnostics) catalogue.ImageSpec {
	spec := catalogue.ImageSpec{Architecture: m.Architecture.ValueString(), Virtualization: m.Virtualization.ValueString()}

	if m.OS != nil {
		spec.OS = catalogue.ImageOS{
			Kernel: m.OS.Kernel.ValueString(), Family: m.OS.Family.ValueString(), Distro: m.OS.Distro.ValueString(),
			Version: m.OS.Version.ValueString(), Variant: m.OS.Variant.ValueString(), Codename: m.OS.Codename.ValueString(),
		}
	}

	if !m.SoftwareVersions.IsNull() {
		diags.Append(m.SoftwareVersions.ElementsAs(ctx, &spec.SoftwareVersions, false)...)
	}

	if m.GPU != nil {
		spec.GPU = &catalogue.ImageGPU{Vendor: m.GPU.Vendor.ValueString(), Driver: m.GPU.Driver.ValueString(), Models: m.GPU.Models}
	}

	return spec
}

// setImage fills the model from region's image. The optional parts of its
// specification left out of the configuration stay null while region holds none, as
// the description and tags do (see regionimage.Common.SetImage). The URI is the
// configuration's: region does not say it.
func setImage(ctx context.Context, m *model, read *image.Image, diags *diag.Diagnostics) {
	m.SetImage(ctx, read, diags)
	m.Architecture = types.StringValue(read.Spec.Architecture)
	m.Virtualization = types.StringValue(read.Spec.Virtualization)
	m.OS = &osModel{
		Kernel: types.StringValue(read.Spec.OS.Kernel), Family: types.StringValue(read.Spec.OS.Family),
		Distro: types.StringValue(read.Spec.OS.Distro), Version: types.StringValue(read.Spec.OS.Version),
		Variant: family.OptionalString(read.Spec.OS.Variant), Codename: family.OptionalString(read.Spec.OS.Codename),
	}

	m.SoftwareVersions = types.MapNull(types.StringType)
	if len(read.Spec.SoftwareVersions) > 0 {
		versions, d := types.MapValueFrom(ctx, types.StringType, read.Spec.SoftwareVersions)
		diags.Append(d...)
		m.SoftwareVersions = versions
	}

	m.GPU = nil
	if gpu := read.Spec.GPU; gpu != nil {
		m.GPU = &gpuModel{Vendor: types.StringValue(gpu.Vendor), Driver: types.StringValue(gpu.Driver)}
		if len(gpu.Models) > 0 {
			m.GPU.Models = gpu.Models
		}
	}

	m.SizeGiB = types.Int64Value(int64(read.Spec.SizeGiB))
	m.State = types.StringValue(read.Status)
}
