package kubernetes

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
)

func cluster() *kubernetes.Cluster {
	one, disk := 1, 40

	return &kubernetes.Cluster{
		Metadata: cloud.ProjectMetadata{
			WriteMetadata: cloud.WriteMetadata{Name: "web", Tags: cloud.TagsOf(map[string]string{"team": "web"})},
			ID:            "c1", OrganizationID: "o", ProjectID: "p", CreationTime: time.Unix(0, 0), ProvisioningStatus: "provisioned",
		},
		HealthStatus: "healthy", RegionID: "r", Version: "v1.31.0", ClusterManagerID: "m", ApplicationBundle: "b",
		AutoUpgrade:  &kubernetes.AutoUpgrade{Enabled: true, Days: map[string]kubernetes.Window{"monday": {Start: 0, End: 7}}},
		ControlPlane: kubernetes.ControlPlane{FlavorID: "cp", Replicas: 3},
		Pools: []kubernetes.Pool{
			{Name: "general", FlavorID: "std", Replicas: 3, MinReplicas: &one, DiskGiB: &disk, Labels: map[string]string{"tier": "web"}},
			{Name: "gpu", FlavorID: "gpu", Replicas: 1},
		},
	}
}

// A cluster read into the resource's state asks, as a plan, for the cluster as it is:
// what the state shows is what an update sends again.
func TestStateAsksForTheClusterItShows(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	var diags diag.Diagnostics

	m := &resourceModel{
		clusterModel: clusterModel{Metadata: family.UnsetMetadata(), WorkloadPools: types.MapNull(poolType), AutoUpgrade: types.ObjectNull(autoUpgradeType.AttrTypes)},
		API:          types.ObjectNull(apiType.AttrTypes), Networking: types.ObjectNull(networkingType.AttrTypes),
	}
	c := cluster()
	m.setKept(ctx, c, &diags)
	require.False(t, diags.HasError(), "%v", diags)

	d := m.desired(ctx, m, &diags)
	require.False(t, diags.HasError(), "%v", diags)

	assert.Equal(t, kubernetes.Desired{
		Metadata: c.Metadata.WriteMetadata, Version: c.Version, ControlPlane: &c.ControlPlane, Pools: c.Pools,
		AutoUpgrade: c.AutoUpgrade, HardwareEnablement: c.HardwareEnablement,
	}, d)
	assert.Equal(t, "p", m.ProjectID.ValueString())
	assert.Equal(t, "r", m.RegionID.ValueString())
}

// Where the service shows one thing for two that were written, the state keeps what
// it held: empty labels as empty, auto-upgrade enabled without days as such; what the
// service shows otherwise replaces it.
func TestStateKeepsWhatTheServiceShowsAlike(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	var diags diag.Diagnostics

	enabled := objectValue(ctx, autoUpgradeType, autoUpgradeModel{Enabled: types.BoolValue(true), DaysOfWeek: types.MapNull(windowType)}, &diags)
	off := objectValue(ctx, autoUpgradeType, autoUpgradeModel{Enabled: types.BoolValue(false), DaysOfWeek: types.MapNull(windowType)}, &diags)

	assert.Equal(t, enabled, autoUpgradeValue(ctx, nil, enabled, &diags), "enabled without days is shown as none")
	assert.True(t, autoUpgradeValue(ctx, nil, off, &diags).IsNull(), "off, shown as none, was changed by another")
	assert.Equal(t, off, autoUpgradeValue(ctx, &kubernetes.AutoUpgrade{}, types.ObjectNull(autoUpgradeType.AttrTypes), &diags))

	empty := poolModel{Labels: mapValue(ctx, types.StringType, map[string]string{}, &diags)}
	assert.Equal(t, 0, len(newPoolModel(ctx, kubernetes.Pool{Name: "a"}, empty, &diags).Labels.Elements()))
	assert.False(t, newPoolModel(ctx, kubernetes.Pool{Name: "a"}, empty, &diags).Labels.IsNull())
	assert.True(t, newPoolModel(ctx, kubernetes.Pool{Name: "a"}, poolModel{Labels: types.MapNull(types.StringType)}, &diags).Labels.IsNull())
	require.False(t, diags.HasError(), "%v", diags)
}

// Every schema of the family is one the framework accepts.
func TestSchemasAreValid(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	var r resource.SchemaResponse

	NewResource().Schema(ctx, resource.SchemaRequest{}, &r)
	assert.False(t, r.Diagnostics.HasError(), "%v", r.Diagnostics)
	assert.False(t, r.Schema.ValidateImplementation(ctx).HasError())

	for _, d := range []datasource.DataSource{NewDataSource(), NewVersionsDataSource()} {
		var response datasource.SchemaResponse

		d.Schema(ctx, datasource.SchemaRequest{}, &response)
		assert.False(t, response.Schema.ValidateImplementation(ctx).HasError())
	}

	var e ephemeral.SchemaResponse

	NewKubeconfigEphemeralResource().Schema(ctx, ephemeral.SchemaRequest{}, &e)
	assert.False(t, e.Schema.ValidateImplementation(ctx).HasError())
}
