package storage

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

var (
	_ resource.ResourceWithConfigure   = (*fileStorageResource)(nil)
	_ resource.ResourceWithImportState = (*fileStorageResource)(nil)
	_ resource.ResourceWithIdentity    = (*fileStorageResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*fileStorageResource)(nil)
)

var (
	pathProjectID   = path.Root("project_id")
	pathSizeGiB     = path.Root("size_gib")
	pathAttachments = path.Root("attachments")
	pathClassID     = path.Root("storage_class_id")
)

// Waiting for a share to be made and exported can take many minutes: region's own
// tests allow ten for a mount source to appear.
const (
	defaultWriteTimeout  = 30 * time.Minute
	defaultDeleteTimeout = 20 * time.Minute
)

// NewResource returns the unikorn_file_storage resource.
func NewResource() resource.Resource {
	return &fileStorageResource{family.Resource[storage.FileStorage, *resourceModel]{
		Base: family.Base{Type: family.Type{
			Name: TypeName, Noun: "file storage", Service: "region", Scope: family.Global,
			Timeout: defaultWriteTimeout, DeleteTimeout: defaultDeleteTimeout, Diagnose: diagnostic.Storage,
		}},
		Object: family.Object[storage.FileStorage, *resourceModel]{
			New: func() *resourceModel { return &resourceModel{} },
			Read: func(ctx context.Context, p *providerdata.Data, key family.Key) (*storage.FileStorage, error) {
				return p.Storage.Read(ctx, key.ID)
			},
			Remove: func(ctx context.Context, p *providerdata.Data, key family.Key, created time.Time) error {
				return p.Storage.Delete(ctx, key.ID, created)
			},
			Set: func(ctx context.Context, m *resourceModel, fs *storage.FileStorage, diags *diag.Diagnostics) {
				m.setKept(ctx, fs, diags)
			},
			Lifecycle: func(fs *storage.FileStorage) (time.Time, bool) {
				return fs.Metadata.CreationTime, fs.Metadata.Deleting
			},
		},
	}}
}

// fileStorageResource manages file storage. Region fixes its organization, project,
// region and class at create, so changing them replaces it; everything else changes
// in place, except that a shrink is refused (see checkSize).
type fileStorageResource struct {
	family.Resource[storage.FileStorage, *resourceModel]
}

type resourceModel struct {
	storageModel
	family.Timed
}

// Keys are the storage's ID: region's IDs are unique across organizations.
func (m *resourceModel) Keys() (types.String, types.String) { return m.OrganizationID, m.ID }

func (r *fileStorageResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	scope := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}

	resp.Schema = schema.Schema{
		MarkdownDescription: descriptionStorage + " Name, description, tags, size, root squash, attachments, snapshot " +
			"policies and default snapshot protection change in place; a change of organization, project, region or " +
			"storage class replaces it. Every update sends the size, root squash and attachments, which region resets " +
			"when they are missing; snapshot policies and default snapshot protection left out of the configuration " +
			"are kept as they are, whoever set them. A create, and every update that attaches a network, waits until " +
			"the storage is provisioned and every attached network has a mount source; one that detaches a network " +
			"waits until it is gone. The size can only grow: region would shrink a share below the data it holds, " +
			"so a smaller `size_gib` is refused in place: the plan warns and the apply stops before anything is sent. " +
			"Storage being replaced (a new class, `terraform apply -replace`) is new storage of any size.",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: descriptionID,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: descriptionName + " Changed in place.",
				Validators: []validator.String{validators.Name("file storage")},
			},
			"description": schema.StringAttribute{
				Optional: true, MarkdownDescription: descriptionDescription + " Changed in place.",
			},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: descriptionTags + " Changed in place.",
				Validators:          []validator.Map{validators.TagNames()},
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: descriptionOrganizationID + " Defaults to the provider's `organization_id`. Changing it replaces the file storage.",
				Validators:          []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: descriptionProjectID + " Defaults to the provider's `project_id`. Changing it replaces the file storage.",
				Validators:          []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				MarkdownDescription: descriptionRegionID + " Changing it replaces the file storage.",
				Validators:          []validator.String{validators.UUID()},
			},
			"storage_class_id": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				MarkdownDescription: descriptionClassID + " Changing it replaces the file storage.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"size_gib": schema.Int64Attribute{
				Required: true,
				MarkdownDescription: descriptionSizeGiB + " Grown in place, charging the difference to the `filestorage` " +
					"quota; a smaller size is refused in place (the plan warns, the apply stops before anything is sent). " +
					"To shrink, make new storage of the smaller size, move the data, and delete this one; or, if the " +
					"data may be lost, replace it (`terraform apply -replace=<address>`) at the smaller size.",
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"root_squash": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: descriptionRootSquash + " Defaults to `true`, as region does. Changed in place.",
			},
			"attachments": schema.SetAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: descriptionAttachments + " Each is checked at plan. Changed in place; none " +
					"detaches the share from every network.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(validators.UUID())},
			},
			"snapshot_policies": schema.MapNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionPolicies + " Left out, the policies are kept as they are; `{}` " +
					"removes them all. Changed in place.",
				PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown()},
				Validators: []validator.Map{
					mapvalidator.SizeAtMost(storage.MaxPolicies),
					policies{"snapshot policy names and schedules must be ones region accepts"},
				},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"interval": schema.StringAttribute{
						Required: true, MarkdownDescription: descriptionPolicyInterval,
						Validators: []validator.String{stringvalidator.OneOf(storage.Intervals...)},
					},
					"time_of_day":  schema.StringAttribute{Optional: true, MarkdownDescription: descriptionPolicyTimeOfDay},
					"day_of_week":  schema.StringAttribute{Optional: true, MarkdownDescription: descriptionPolicyDayOfWeek},
					"day_of_month": schema.Int64Attribute{Optional: true, MarkdownDescription: descriptionPolicyDayOfMonth},
					"keep": schema.Int64Attribute{
						Required: true, MarkdownDescription: descriptionPolicyKeep,
						Validators: []validator.Int64{int64validator.AtLeast(1)},
					},
				}},
			},
			"default_snapshot_protection": schema.BoolAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionProtection + " Left out, it is kept as it is. Changed in place.",
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"snapshot_policy_status": schema.MapAttribute{
				Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionPolicyStatus,
			},
			"mounts": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: descriptionMounts,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"mount_source": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionMountSource},
					"mount_options": schema.MapAttribute{
						Computed: true, ElementType: types.StringType, MarkdownDescription: descriptionMountOptions,
					},
					"status": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionMountStatus},
				}},
			},
			"usage": schema.SingleNestedAttribute{
				Computed: true, MarkdownDescription: descriptionUsage,
				Attributes: map[string]schema.Attribute{
					"capacity_bytes": schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionCapacity},
					"used_bytes":     schema.Int64Attribute{Computed: true, MarkdownDescription: descriptionUsed},
					"updated_at":     schema.StringAttribute{Computed: true, MarkdownDescription: descriptionUpdatedAt},
				},
			},
		},
	}
}

func (r *fileStorageResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config resourceModel

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*storage.FileStorage, error) {
		diags.Append(req.Config.Get(ctx, &config)...)

		placement := storage.Placement{
			OrganizationID: r.Organization(plan.OrganizationID, diags),
			ProjectID:      r.Provider.Project(plan.ProjectID, pathProjectID, diags),
			RegionID:       plan.RegionID.ValueString(),
			ClassID:        plan.StorageClassID.ValueString(),
		}
		want := desired(ctx, &plan.storageModel, &config.storageModel, diags)

		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Storage.Create(ctx, placement, want)
	})
}

func (r *fileStorageResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, config resourceModel

	r.Write(ctx, req.Plan, &plan, family.Updated(resp), func(ctx context.Context, diags *diag.Diagnostics) (*storage.FileStorage, error) {
		diags.Append(req.State.Get(ctx, &state)...)
		diags.Append(req.Config.Get(ctx, &config)...)

		// What the plan could only warn of is refused here, before anything is sent.
		if diags.Append(checkSize(ctx, &plan, &state)...); diags.HasError() {
			return nil, nil
		}

		want := desired(ctx, &plan.storageModel, &config.storageModel, diags)
		if diags.HasError() {
			return nil, nil
		}

		// A change that region would not see (timeouts, an empty list for none) sends
		// nothing to the cloud.
		if !changesCloud(&plan.storageModel, &state.storageModel) {
			plan.keepReported(&state)
			diags.Append(resp.State.Set(ctx, &plan)...)

			return nil, nil
		}

		return r.Provider.Storage.Update(ctx, plan.ID.ValueString(), want)
	})
}

// keepReported takes what region reports of the storage, which the configuration does
// not set, from what it reported last.
func (m *resourceModel) keepReported(from *resourceModel) {
	m.PolicyStatus, m.Mounts, m.Usage = from.PolicyStatus, from.Mounts, from.Usage
}

// changesCloud reports whether the plan asks region for anything the state does not
// have, in place or by replacement.
func changesCloud(plan, state *storageModel) bool {
	return !plan.OrganizationID.Equal(state.OrganizationID) || !plan.ProjectID.Equal(state.ProjectID) ||
		!plan.RegionID.Equal(state.RegionID) || !plan.StorageClassID.Equal(state.StorageClassID) ||
		!plan.Name.Equal(state.Name) || !plan.Description.Equal(state.Description) || !sameMap(plan.Tags, state.Tags) ||
		!plan.SizeGiB.Equal(state.SizeGiB) || !plan.RootSquash.Equal(state.RootSquash) ||
		!sameSet(plan.Attachments, state.Attachments) ||
		!plan.SnapshotPolicies.Equal(state.SnapshotPolicies) || !plan.DefaultProtection.Equal(state.DefaultProtection)
}

// sameMap and sameSet hold null and empty alike: region keeps no difference.
func sameMap(a, b types.Map) bool {
	return len(a.Elements()) == 0 && len(b.Elements()) == 0 || a.Equal(b)
}

func sameSet(a, b types.Set) bool {
	return len(a.Elements()) == 0 && len(b.Elements()) == 0 || a.Equal(b)
}
