package kubernetes

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func flavor(id, arch string, gpus int) unikorn.Flavor {
	var f unikorn.Flavor

	f.Metadata.ID, f.Spec.Architecture = id, arch
	if gpus > 0 {
		f.Spec.GPU = &unikorn.GPUSpec{PhysicalCount: gpus}
	}

	return f
}

// fields is what each problem is about, by field and pool.
func fields(problems []Problem) []string {
	out := []string{}
	for _, p := range problems {
		out = append(out, map[Field]string{
			FieldVersion: "version", FieldControlPlaneFlavor: "control plane flavor", FieldControlPlaneReplicas: "control plane replicas",
			FieldPoolFlavor: "flavor", FieldPoolReplicas: "replicas", FieldQuota: "quota",
		}[p.Field]+" "+p.Pool)
	}

	return out
}

// What the service would refuse or fail is found at plan, on what is at fault; what
// is not known yet is not judged.
func TestCheckFindsWhatTheServiceRefuses(t *testing.T) {
	t.Parallel()

	versions := []Version{{Version: "v1.31.0", Architectures: []string{"x86_64"}}}
	flavors := []unikorn.Flavor{flavor("std", "x86_64", 0), flavor("arm", "aarch64", 0)}
	two := 2

	for name, tc := range map[string]struct {
		plan Plan
		want []string
	}{
		"fine": {Plan{RegionID: "r", Version: "v1.31.0", Pools: []Pool{{Name: "a", FlavorID: "std", Replicas: 1}}}, []string{}},
		"version not offered, as written": {
			Plan{RegionID: "r", Version: "1.31.0", Pools: []Pool{{Name: "a", FlavorID: "std", Replicas: 1}}},
			[]string{"version "},
		},
		"flavor not offered, and one of another architecture": {
			Plan{RegionID: "r", Version: "v1.31.0", ControlPlane: &ControlPlane{FlavorID: "tiny", Replicas: 3},
				Pools: []Pool{{Name: "b", FlavorID: "arm", Replicas: 1}, {Name: "a", FlavorID: "tiny", Replicas: 1}}},
			[]string{"control plane flavor ", "flavor a", "flavor b"},
		},
		"even control plane, minimum above maximum": {
			Plan{RegionID: "r", Version: "v1.31.0", ControlPlane: &ControlPlane{FlavorID: "std", Replicas: 2},
				Pools: []Pool{{Name: "a", FlavorID: "std", Replicas: 1, MinReplicas: &two}}},
			[]string{"control plane replicas ", "replicas a"},
		},
		"unknowns": {
			Plan{RegionID: "r", Pools: []Pool{{Name: "a", Replicas: -1, MinReplicas: &two}}},
			[]string{},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			assert.Equal(t, tc.want, fields(append(checkPools(tc.plan), checkCatalogue(tc.plan, versions, flavors)...)))
		})
	}
}

// A create needs one cluster and its pools' most machines free, and their GPUs; an
// update needs only what it adds.
func TestCheckQuotaCountsWhatTheClusterIsCharged(t *testing.T) {
	t.Parallel()

	flavors := []unikorn.Flavor{flavor("std", "x86_64", 0), flavor("gpu", "x86_64", 2)}
	quotas := func(clusters, servers, gpus int) []unikorn.Quota {
		return []unikorn.Quota{
			{Kind: QuotaClusters, Free: clusters, Quantity: 5}, {Kind: QuotaServers, Free: servers, Quantity: 10},
			{Kind: QuotaGPUs, Free: gpus, Quantity: 4},
		}
	}
	one := 1
	pools := []Pool{{Name: "a", FlavorID: "std", Replicas: 3, MinReplicas: &one}, {Name: "b", FlavorID: "gpu", Replicas: 2}}

	assert.Empty(t, checkQuota(Plan{Pools: pools}, flavors, quotas(1, 5, 4)))
	assert.Equal(t, []string{"quota ", "quota ", "quota "}, fields(checkQuota(Plan{Pools: pools}, flavors, quotas(0, 4, 3))))

	problems := checkQuota(Plan{Pools: pools}, flavors, quotas(1, 4, 4))
	if assert.Len(t, problems, 1) {
		assert.Contains(t, problems[0].Summary, "`servers`")
		assert.Contains(t, problems[0].Detail, "needs 5 more")
	}

	current := &Cluster{Pools: []Pool{{Name: "a", FlavorID: "std", Replicas: 3}}}
	grown := []Pool{{Name: "a", FlavorID: "std", Replicas: 5}}
	assert.Empty(t, checkQuota(Plan{Pools: grown, Current: current}, flavors, quotas(0, 2, 0)), "an update needs no cluster and only what it adds")
	assert.Len(t, checkQuota(Plan{Pools: grown, Current: current}, flavors, quotas(0, 1, 0)), 1)
}
