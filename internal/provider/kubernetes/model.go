// Package kubernetes serves Unikorn's Kubernetes service to Terraform: the
// unikorn_kubernetes_cluster resource (a cluster with workload pools keyed by name),
// its data source and list resource, the ephemeral
// unikorn_kubernetes_cluster_kubeconfig, and the unikorn_kubernetes_versions data
// source.
package kubernetes

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
)

// clusterModel is a cluster as the resource and the data source hold it: what the
// service shows of it.
type clusterModel struct {
	family.Metadata
	family.Place

	ID                 types.String `tfsdk:"id"`
	Version            types.String `tfsdk:"version"`
	ClusterManagerID   types.String `tfsdk:"cluster_manager_id"`
	ControlPlane       types.Object `tfsdk:"control_plane"`
	WorkloadPools      types.Map    `tfsdk:"workload_pools"`
	AutoUpgrade        types.Object `tfsdk:"auto_upgrade"`
	HardwareEnablement types.Bool   `tfsdk:"hardware_enablement"`
	ApplicationBundle  types.String `tfsdk:"application_bundle"`
	HealthStatus       types.String `tfsdk:"health_status"`
	ProvisioningStatus types.String `tfsdk:"provisioning_status"`
}

type controlPlaneModel struct {
	FlavorID types.String `tfsdk:"flavor_id"`
	Replicas types.Int64  `tfsdk:"replicas"`
}

// poolModel is one workload pool; its name is its key in the map.
type poolModel struct {
	FlavorID    types.String `tfsdk:"flavor_id"`
	Replicas    types.Int64  `tfsdk:"replicas"`
	MinReplicas types.Int64  `tfsdk:"min_replicas"`
	DiskSizeGiB types.Int64  `tfsdk:"disk_size_gib"`
	Labels      types.Map    `tfsdk:"labels"`
}

type autoUpgradeModel struct {
	Enabled    types.Bool `tfsdk:"enabled"`
	DaysOfWeek types.Map  `tfsdk:"days_of_week"`
}

type windowModel struct {
	Start types.Int64 `tfsdk:"start"`
	End   types.Int64 `tfsdk:"end"`
}

type apiModel struct {
	AllowedPrefixes         types.Set `tfsdk:"allowed_prefixes"`
	SubjectAlternativeNames types.Set `tfsdk:"subject_alternative_names"`
}

type networkingModel struct {
	NodePrefix    types.String `tfsdk:"node_prefix"`
	ServicePrefix types.String `tfsdk:"service_prefix"`
	PodPrefix     types.String `tfsdk:"pod_prefix"`
}

// objectAsOptions reads a nested object strictly: every attribute is in the model.
var objectAsOptions = basetypes.ObjectAsOptions{}

var (
	stringMap        = types.MapType{ElemType: types.StringType}
	stringSet        = types.SetType{ElemType: types.StringType}
	controlPlaneType = types.ObjectType{AttrTypes: map[string]attr.Type{"flavor_id": types.StringType, "replicas": types.Int64Type}}
	poolType         = types.ObjectType{AttrTypes: map[string]attr.Type{
		"flavor_id": types.StringType, "replicas": types.Int64Type, "min_replicas": types.Int64Type,
		"disk_size_gib": types.Int64Type, "labels": stringMap,
	}}
	windowType      = types.ObjectType{AttrTypes: map[string]attr.Type{"start": types.Int64Type, "end": types.Int64Type}}
	autoUpgradeType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"enabled": types.BoolType, "days_of_week": types.MapType{ElemType: windowType},
	}}
	apiType        = types.ObjectType{AttrTypes: map[string]attr.Type{"allowed_prefixes": stringSet, "subject_alternative_names": stringSet}}
	networkingType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"node_prefix": types.StringType, "service_prefix": types.StringType, "pod_prefix": types.StringType,
	}}
)

// setKept fills a resource's model from the service's record: an unset description
// or tags stay unset while the service holds none (see family.Metadata.Set).
func (m *clusterModel) setKept(ctx context.Context, c *kubernetes.Cluster, diags *diag.Diagnostics) {
	m.SetFrom(ctx, c.Metadata.WriteMetadata, diags)
	m.setRest(ctx, c, diags)
}

// setFound fills a look-up's model from the service's record (see
// family.Metadata.Found).
func (m *clusterModel) setFound(ctx context.Context, c *kubernetes.Cluster, diags *diag.Diagnostics) {
	m.Found(ctx, c.Metadata.Name, c.Metadata.Description, cloud.TagMap(c.Metadata.Tags), diags)
	m.setRest(ctx, c, diags)
}

// setRest fills all but the metadata from the service's record. Where the service
// shows one thing for two that were written (a pool's labels left out or empty,
// auto-upgrade left out or enabled without days), what the model held stays.
func (m *clusterModel) setRest(ctx context.Context, c *kubernetes.Cluster, diags *diag.Diagnostics) {
	m.ID = types.StringValue(c.Metadata.ID)
	m.Place = family.PlaceOf(c.Metadata.OrganizationID, c.Metadata.ProjectID, c.RegionID)
	m.Version = types.StringValue(c.Version)
	m.ClusterManagerID = types.StringValue(c.ClusterManagerID)
	m.ApplicationBundle = types.StringValue(c.ApplicationBundle)
	m.HealthStatus = types.StringValue(c.HealthStatus)
	m.ProvisioningStatus = types.StringValue(c.Metadata.ProvisioningStatus)
	m.HardwareEnablement = types.BoolValue(c.HardwareEnablement)
	m.ControlPlane = objectValue(ctx, controlPlaneType, controlPlaneModel{
		FlavorID: types.StringValue(c.ControlPlane.FlavorID), Replicas: types.Int64Value(int64(c.ControlPlane.Replicas)),
	}, diags)

	prior := pools(ctx, m.WorkloadPools, diags)
	shown := map[string]poolModel{}

	for _, pool := range c.Pools {
		shown[pool.Name] = newPoolModel(ctx, pool, prior[pool.Name], diags)
	}

	m.WorkloadPools = mapValue(ctx, poolType, shown, diags)
	m.AutoUpgrade = autoUpgradeValue(ctx, c.AutoUpgrade, m.AutoUpgrade, diags)
}

func newPoolModel(ctx context.Context, pool kubernetes.Pool, prior poolModel, diags *diag.Diagnostics) poolModel {
	model := poolModel{
		FlavorID: types.StringValue(pool.FlavorID), Replicas: types.Int64Value(int64(pool.Replicas)),
		MinReplicas: optionalInt(pool.MinReplicas), DiskSizeGiB: optionalInt(pool.DiskGiB), Labels: types.MapNull(types.StringType),
	}

	if len(pool.Labels) > 0 || (!prior.Labels.IsNull() && !prior.Labels.IsUnknown()) {
		model.Labels = mapValue(ctx, types.StringType, pool.Labels, diags)
	}

	return model
}

// autoUpgradeValue is the auto-upgrade policy the service shows, in the form the model
// held it where the service shows two forms alike: none for both none and enabled
// without days (see kubernetes.Shown).
func autoUpgradeValue(ctx context.Context, shown *kubernetes.AutoUpgrade, prior types.Object, diags *diag.Diagnostics) types.Object {
	if shown == nil {
		if policy, known := autoUpgrade(ctx, prior, diags); known && kubernetes.Shown(policy) == nil {
			return prior
		}

		return types.ObjectNull(autoUpgradeType.AttrTypes)
	}

	days := types.MapNull(windowType)
	if shown.Days != nil {
		windows := map[string]windowModel{}
		for day, window := range shown.Days {
			windows[day] = windowModel{Start: types.Int64Value(int64(window.Start)), End: types.Int64Value(int64(window.End))}
		}

		days = mapValue(ctx, windowType, windows, diags)
	}

	return objectValue(ctx, autoUpgradeType, autoUpgradeModel{Enabled: types.BoolValue(shown.Enabled), DaysOfWeek: days}, diags)
}

// autoUpgrade is the policy a model holds, nil for none; known is false while it is
// not known yet.
func autoUpgrade(ctx context.Context, value types.Object, diags *diag.Diagnostics) (*kubernetes.AutoUpgrade, bool) {
	if value.IsUnknown() {
		return nil, false
	}

	if value.IsNull() {
		return nil, true
	}

	var model autoUpgradeModel
	diags.Append(value.As(ctx, &model, objectAsOptions)...)

	policy := &kubernetes.AutoUpgrade{Enabled: model.Enabled.ValueBool()}

	if !model.DaysOfWeek.IsNull() {
		windows := map[string]windowModel{}
		diags.Append(model.DaysOfWeek.ElementsAs(ctx, &windows, false)...)

		policy.Days = map[string]kubernetes.Window{}
		for day, window := range windows {
			policy.Days[day] = kubernetes.Window{Start: int(window.Start.ValueInt64()), End: int(window.End.ValueInt64())}
		}
	}

	return policy, true
}

// pools is a model's workload pools by name; none while they are not known.
func pools(ctx context.Context, value types.Map, diags *diag.Diagnostics) map[string]poolModel {
	out := map[string]poolModel{}
	if !value.IsNull() && !value.IsUnknown() {
		diags.Append(value.ElementsAs(ctx, &out, false)...)
	}

	return out
}

// desired is what the plan asks of the cluster's mutable parts. A control plane the
// configuration leaves out is the service's choice (kept by an update), whatever the
// plan shows of it.
func (m *resourceModel) desired(ctx context.Context, config *resourceModel, diags *diag.Diagnostics) kubernetes.Desired {
	d := kubernetes.Desired{
		Metadata:           m.Write(ctx, diags),
		Version:            m.Version.ValueString(),
		HardwareEnablement: m.HardwareEnablement.ValueBool(),
		Pools:              m.pools(ctx, diags),
	}

	if !config.ControlPlane.IsNull() {
		d.ControlPlane = m.controlPlane(ctx, diags)
	}

	d.AutoUpgrade, _ = autoUpgrade(ctx, m.AutoUpgrade, diags)

	if !m.API.IsNull() {
		var api apiModel
		diags.Append(m.API.As(ctx, &api, objectAsOptions)...)

		d.API = &kubernetes.API{
			AllowedPrefixes:         sortedStrings(api.AllowedPrefixes),
			SubjectAlternativeNames: sortedStrings(api.SubjectAlternativeNames),
		}
	}

	return d
}

// controlPlane is the control plane a model holds; nil while it is not known.
func (m *clusterModel) controlPlane(ctx context.Context, diags *diag.Diagnostics) *kubernetes.ControlPlane {
	if m.ControlPlane.IsNull() || m.ControlPlane.IsUnknown() {
		return nil
	}

	var model controlPlaneModel
	diags.Append(m.ControlPlane.As(ctx, &model, objectAsOptions)...)

	// Not known yet, or left out: the service's default.
	return &kubernetes.ControlPlane{FlavorID: model.FlavorID.ValueString(), Replicas: int(model.Replicas.ValueInt64())}
}

// pools is the workload pools a model holds. What is not known yet is "" for a
// flavor and -1 for a count, which the plan's checks leave unjudged.
func (m *clusterModel) pools(ctx context.Context, diags *diag.Diagnostics) []kubernetes.Pool {
	models := pools(ctx, m.WorkloadPools, diags)
	out := make([]kubernetes.Pool, 0, len(models))

	for _, name := range sortedKeys(models) {
		model := models[name]
		pool := kubernetes.Pool{Name: name, FlavorID: model.FlavorID.ValueString(), Replicas: knownInt(model.Replicas)}

		if !model.MinReplicas.IsNull() {
			pool.MinReplicas = ptr(knownInt(model.MinReplicas))
		}

		if !model.DiskSizeGiB.IsNull() {
			pool.DiskGiB = ptr(knownInt(model.DiskSizeGiB))
		}

		if !model.Labels.IsNull() && !model.Labels.IsUnknown() {
			pool.Labels = map[string]string{}
			diags.Append(model.Labels.ElementsAs(ctx, &pool.Labels, false)...)
		}

		out = append(out, pool)
	}

	return out
}

// networking is what a resource's model asks of the cluster's networking; nil for the
// service's defaults.
func (m *resourceModel) networking(ctx context.Context, diags *diag.Diagnostics) *kubernetes.Networking {
	if m.Networking.IsNull() || m.Networking.IsUnknown() {
		return nil
	}

	var model networkingModel
	diags.Append(m.Networking.As(ctx, &model, objectAsOptions)...)

	return &kubernetes.Networking{
		NodePrefix: model.NodePrefix.ValueString(), ServicePrefix: model.ServicePrefix.ValueString(),
		PodPrefix: model.PodPrefix.ValueString(),
	}
}

// sortedStrings is what is known of a set of strings, in order.
func sortedStrings(value types.Set) []string {
	values, _ := planning.KnownStrings(value)

	return slices.Sorted(slices.Values(values))
}

func optionalInt(value *int) types.Int64 {
	if value == nil {
		return types.Int64Null()
	}

	return types.Int64Value(int64(*value))
}

// knownInt is a count, -1 while it is not known.
func knownInt(value types.Int64) int {
	if value.IsUnknown() {
		return -1
	}

	return int(value.ValueInt64())
}

func ptr(v int) *int { return &v }

func objectValue(ctx context.Context, t types.ObjectType, model any, diags *diag.Diagnostics) types.Object {
	value, d := types.ObjectValueFrom(ctx, t.AttrTypes, model)
	diags.Append(d...)

	return value
}

func mapValue[T any](ctx context.Context, elementType attr.Type, elements map[string]T, diags *diag.Diagnostics) types.Map {
	if elements == nil {
		elements = map[string]T{}
	}

	value, d := types.MapValueFrom(ctx, elementType, elements)
	diags.Append(d...)

	return value
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
