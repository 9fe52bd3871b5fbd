// Package storage serves region's file storage to Terraform: the
// unikorn_file_storage resource (NFS shares that instances mount from the networks
// they are attached to), its data source and list resource, and the
// unikorn_file_storage_classes data source.
package storage

import (
	"context"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// storageModel is file storage as the resource and the data source hold it.
type storageModel struct {
	family.Metadata
	family.Place

	ID                types.String `tfsdk:"id"`
	StorageClassID    types.String `tfsdk:"storage_class_id"`
	SizeGiB           types.Int64  `tfsdk:"size_gib"`
	RootSquash        types.Bool   `tfsdk:"root_squash"`
	Attachments       types.Set    `tfsdk:"attachments"`
	SnapshotPolicies  types.Map    `tfsdk:"snapshot_policies"`
	DefaultProtection types.Bool   `tfsdk:"default_snapshot_protection"`
	PolicyStatus      types.Map    `tfsdk:"snapshot_policy_status"`
	Mounts            types.Map    `tfsdk:"mounts"`
	Usage             types.Object `tfsdk:"usage"`
}

// policyModel is one snapshot policy; its name is its key in the map.
type policyModel struct {
	Interval   types.String `tfsdk:"interval"`
	TimeOfDay  types.String `tfsdk:"time_of_day"`
	DayOfWeek  types.String `tfsdk:"day_of_week"`
	DayOfMonth types.Int64  `tfsdk:"day_of_month"`
	Keep       types.Int64  `tfsdk:"keep"`
}

// mountModel is the export of the storage to one network.
type mountModel struct {
	MountSource  types.String `tfsdk:"mount_source"`
	MountOptions types.Map    `tfsdk:"mount_options"`
	Status       types.String `tfsdk:"status"`
}

// usageModel is what the storage back end reports of a share's use.
type usageModel struct {
	CapacityBytes types.Int64  `tfsdk:"capacity_bytes"`
	UsedBytes     types.Int64  `tfsdk:"used_bytes"`
	UpdatedAt     types.String `tfsdk:"updated_at"`
}

// objectAsOptions reads a nested object strictly: every attribute is in the model.
var objectAsOptions = basetypes.ObjectAsOptions{}

var (
	policyType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"interval": types.StringType, "time_of_day": types.StringType, "day_of_week": types.StringType,
		"day_of_month": types.Int64Type, "keep": types.Int64Type,
	}}
	mountType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"mount_source": types.StringType, "mount_options": types.MapType{ElemType: types.StringType}, "status": types.StringType,
	}}
	usageType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"capacity_bytes": types.Int64Type, "used_bytes": types.Int64Type, "updated_at": types.StringType,
	}}
)

// setKept fills a resource's model from region's record: an unset description or
// tags stay unset while region holds none (see family.Metadata.Set).
func (m *storageModel) setKept(ctx context.Context, fs *storage.FileStorage, diags *diag.Diagnostics) {
	m.SetFrom(ctx, fs.Metadata.WriteMetadata, diags)
	m.setRest(ctx, fs, diags)
}

// setFound fills a look-up's model from region's record (see family.Metadata.Found).
func (m *storageModel) setFound(ctx context.Context, fs *storage.FileStorage, diags *diag.Diagnostics) {
	m.Found(ctx, fs.Metadata.Name, fs.Metadata.Description, cloud.TagMap(fs.Metadata.Tags), diags)
	m.setRest(ctx, fs, diags)
}

// setRest fills all but the metadata of the model from region's record. Attachments
// the model holds as null stay null while region holds none, so that a configuration
// without them shows no diff.
func (m *storageModel) setRest(ctx context.Context, fs *storage.FileStorage, diags *diag.Diagnostics) {
	metadata := &fs.Metadata

	m.ID = types.StringValue(metadata.ID)
	m.Place = family.PlaceOf(metadata.OrganizationID, metadata.ProjectID, fs.RegionID)
	m.StorageClassID = types.StringValue(fs.ClassID)
	m.SizeGiB = types.Int64Value(fs.SizeGiB)
	m.RootSquash = types.BoolValue(fs.RootSquash)

	if networkIDs := fs.NetworkIDs; len(networkIDs) > 0 || !m.Attachments.IsNull() {
		value, d := types.SetValueFrom(ctx, types.StringType, append([]string{}, networkIDs...))
		diags.Append(d...)
		m.Attachments = value
	}

	m.DefaultProtection = types.BoolNull()
	if protection := fs.DefaultProtection; protection != nil {
		m.DefaultProtection = types.BoolValue(*protection)
	}

	policies := map[string]policyModel{}
	for _, policy := range fs.SnapshotPolicies {
		policies[policy.Name] = newPolicyModel(policy)
	}

	m.SnapshotPolicies = mapValue(ctx, policyType, policies, diags)

	statuses := map[string]string{}
	for _, status := range fs.PolicyStatuses {
		statuses[status.Name] = status.ProvisioningStatus
	}

	m.PolicyStatus = mapValue(ctx, types.StringType, statuses, diags)

	mounts := map[string]mountModel{}
	for _, attachment := range fs.Attachments {
		mounts[attachment.NetworkID] = newMountModel(ctx, attachment, diags)
	}

	m.Mounts = mapValue(ctx, mountType, mounts, diags)
	m.Usage = usageValue(ctx, fs.Usage, diags)
}

func newPolicyModel(policy storage.SnapshotPolicy) policyModel {
	model := policyModel{
		Interval:   types.StringValue(policy.Schedule.Interval),
		TimeOfDay:  family.OptionalString(policy.Schedule.TimeOfDay),
		DayOfWeek:  family.OptionalString(policy.Schedule.DayOfWeek),
		DayOfMonth: types.Int64Null(),
		Keep:       types.Int64Value(int64(policy.Keep)),
	}

	if day := policy.Schedule.DayOfMonth; day != nil {
		model.DayOfMonth = types.Int64Value(int64(*day))
	}

	return model
}

func newMountModel(ctx context.Context, attachment storage.Attachment, diags *diag.Diagnostics) mountModel {
	options := types.MapNull(types.StringType)
	if len(attachment.MountOptions) > 0 {
		options = mapValue(ctx, types.StringType, attachment.MountOptions, diags)
	}

	return mountModel{
		MountSource:  family.OptionalString(attachment.MountSource),
		MountOptions: options,
		Status:       types.StringValue(attachment.ProvisioningStatus),
	}
}

func usageValue(ctx context.Context, usage *storage.Usage, diags *diag.Diagnostics) types.Object {
	if usage == nil {
		return types.ObjectNull(usageType.AttrTypes)
	}

	model := usageModel{
		CapacityBytes: types.Int64Value(usage.CapacityBytes),
		UsedBytes:     types.Int64Null(),
		UpdatedAt:     types.StringNull(),
	}

	if usage.UsedBytes != nil {
		model.UsedBytes = types.Int64Value(*usage.UsedBytes)
	}

	if usage.UpdatedAt != nil {
		model.UpdatedAt = types.StringValue(usage.UpdatedAt.UTC().Format(time.RFC3339))
	}

	value, d := types.ObjectValueFrom(ctx, usageType.AttrTypes, model)
	diags.Append(d...)

	return value
}

// desired is what the plan asks of the storage's mutable parts. Snapshot policies and
// default protection that the configuration leaves out are sent as absent, which
// region reads as "keep": they are observed, never reset.
func desired(ctx context.Context, plan, config *storageModel, diags *diag.Diagnostics) storage.Desired {
	d := storage.Desired{
		Metadata:   plan.Write(ctx, diags),
		SizeGiB:    plan.SizeGiB.ValueInt64(),
		RootSquash: plan.RootSquash.ValueBool(),
		NetworkIDs: []string{},
	}

	diags.Append(plan.Attachments.ElementsAs(ctx, &d.NetworkIDs, false)...)
	slices.Sort(d.NetworkIDs)

	if !config.SnapshotPolicies.IsNull() {
		policies := policiesSpec(ctx, config.SnapshotPolicies, diags)
		d.SnapshotPolicies = &policies
	}

	if !config.DefaultProtection.IsNull() {
		protection := config.DefaultProtection.ValueBool()
		d.DefaultProtection = &protection
	}

	return d
}

// policiesSpec is a map of policies as region takes them, in name order.
func policiesSpec(ctx context.Context, value types.Map, diags *diag.Diagnostics) []storage.SnapshotPolicy {
	models := map[string]policyModel{}
	diags.Append(value.ElementsAs(ctx, &models, false)...)

	policies := make([]storage.SnapshotPolicy, 0, len(models))

	for _, name := range sortedKeys(models) {
		policies = append(policies, policySpec(name, models[name]))
	}

	return policies
}

func policySpec(name string, model policyModel) storage.SnapshotPolicy {
	policy := storage.SnapshotPolicy{
		Name: name,
		Schedule: storage.SnapshotSchedule{
			Interval:  model.Interval.ValueString(),
			TimeOfDay: model.TimeOfDay.ValueString(),
			DayOfWeek: model.DayOfWeek.ValueString(),
		},
		Keep: int(model.Keep.ValueInt64()),
	}

	if !model.DayOfMonth.IsNull() && !model.DayOfMonth.IsUnknown() {
		day := int(model.DayOfMonth.ValueInt64())
		policy.Schedule.DayOfMonth = &day
	}

	return policy
}

func mapValue[T any](ctx context.Context, elementType attr.Type, elements map[string]T, diags *diag.Diagnostics) types.Map {
	value, d := types.MapValueFrom(ctx, elementType, elements)
	diags.Append(d...)

	return value
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}

	slices.Sort(keys)

	return keys
}
