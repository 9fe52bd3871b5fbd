package faults_test

import (
	"fmt"
	"sort"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes/cluster"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// kubernetesSubject is a Kubernetes cluster, managed with an ordinary project user's
// token: made with one workload pool, then given another and the first resized and
// tagged, which moves its quota, then deleted. The Kubernetes service charges the
// quota itself, with its own account, and releases it once the cluster is gone.
func kubernetesSubject() subject {
	return subject{
		name:    "kubernetes",
		what:    "a Kubernetes cluster",
		kept:    "zero leaked allocations, no cluster left behind or replaced",
		options: []acctest.Option{acctest.WithBackend(acctest.ComputeBackend)},
		config:  kubernetesConfig,
		agree:   kubernetesAgreement,
		replaceRoutes: []string{
			"DELETE " + cluster.Prefix + "/api/v1/organizations/{organizationID}/projects/{projectID}/clusters/{clusterID}",
		},
	}
}

// kubernetesPools are the cluster's pools in the phase, by name: replicas.
func kubernetesPools(p phase) map[string]int {
	if p == phaseCreate {
		return map[string]int{"general": 1}
	}

	return map[string]int{"general": 2, "extra": 1}
}

func kubernetesConfig(env *acctest.Environment, p phase) string {
	team := "a"

	if p != phaseCreate {
		team = "b"
	}

	var pools string

	names := make([]string, 0)
	for name := range kubernetesPools(p) {
		names = append(names, name)
	}

	sort.Strings(names)

	for _, name := range names {
		pools += fmt.Sprintf("    %s = { flavor_id = %s, replicas = %d }\n", name, acctest.Quote(env.FlavorID), kubernetesPools(p)[name])
	}

	return fmt.Sprintf(`
resource "unikorn_kubernetes_cluster" "test" {
  name      = "web"
  region_id = %s
  version   = %s
  tags      = { team = %q }

  workload_pools = {
%s  }
}
`, acctest.Quote(env.RegionID), acctest.Quote(sandbox.KubernetesVersion), team, pools)
}

// kubernetesAgreement proves one cluster, with one allocation charging its pools, in
// the sandbox's own records for the one in state, or none at all after a delete.
func kubernetesAgreement(l *life, p phase) {
	l.t.Helper()

	clusters := l.env.KubernetesClusters(l.t)

	allocation := requireOneCharged(l, p, "cluster", "unikorn_kubernetes_cluster.test", clusters,
		func(c *unikorn.KubernetesCluster) string { return c.Metadata.ID }, cluster.AllocationKind)
	if allocation == nil {
		return
	}

	require.Len(l.t, clusters[0].Spec.WorkloadPools, len(kubernetesPools(p)))

	servers := 0
	for _, n := range kubernetesPools(p) {
		servers += n
	}

	for _, line := range allocation.Spec.Allocations {
		if line.Kind == "servers" {
			require.Equal(l.t, servers, line.Committed, "the charge follows the pools")
		}
	}
}
