package kubernetes_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// A cluster made outside Terraform, with networking, is imported by its ID: what the
// service shows is read, what it never shows is not. The first plan takes the
// configuration's networking as what the cluster has, with a warning, and sends the
// API settings in place, never replacing the cluster; a later change of networking
// replaces it.
func TestAccKubernetesClusterImport(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)
	replicas := 1

	made, err := env.ClientAs(t, sandbox.DefaultToken).CreateKubernetesCluster(t.Context(), sandbox.OrganizationID, sandbox.ProjectID,
		unikorn.KubernetesClusterWrite{
			Metadata: unikorn.WriteMetadata{Name: "web"},
			Spec: unikorn.KubernetesClusterSpec{
				RegionID: env.RegionID, Version: version,
				WorkloadPools: []unikorn.KubernetesClusterPool{{
					Name: "general", Machine: unikorn.KubernetesMachinePool{Replicas: &replicas, FlavorID: env.FlavorID},
				}},
				Networking: &unikorn.KubernetesClusterNetwork{NodePrefix: "192.168.20.0/24"},
			},
		})
	require.NoError(t, err)

	networked := func(prefix string) string {
		return fmt.Sprintf(`resource "unikorn_kubernetes_cluster" "web" {
  name      = "web"
  region_id = %q
  version   = %q

  workload_pools = {
    general = { flavor_id = %q, replicas = 1 }
  }

  api = {
    allowed_prefixes = ["10.0.0.0/8"]
  }

  networking = {
    node_prefix = %q
  }
}
`, env.RegionID, version, env.FlavorID, prefix)
	}

	cli := userCLI(t, env, networked("192.168.20.0/24"))
	cli.Run("import", "-input=false", "unikorn_kubernetes_cluster.web", made.Metadata.ID)

	state := cli.Run("state", "show", "unikorn_kubernetes_cluster.web")
	assert.Contains(t, state, made.Spec.ClusterManagerID)
	assert.NotContains(t, state, "192.168.20.0/24", "an import cannot know the networking")

	planned := cli.Run("plan", "-input=false")
	assert.Contains(t, oneLine(planned), "Networking of an imported cluster taken as configured")
	assert.Contains(t, planned, "update in-place")
	assert.NotContains(t, planned, "must be replaced")

	cli.Run("apply", "-auto-approve", "-input=false")

	_, err = cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(t, err, "then nothing to do")

	cli.WriteConfig(env.ProjectUserSettings().Config() + networked("192.168.30.0/24"))
	planned = cli.Run("plan", "-input=false")
	assert.Contains(t, planned, "must be replaced", "networking the service takes once replaces the cluster")
}

// The look-ups: a cluster by name and by ID, the versions a region offers (the
// fixture's node images carry the newest on both architectures, an older one on
// x86_64 alone), and the clusters `terraform query` finds.
func TestAccKubernetesLookups(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)

	cli := userCLI(t, env, fmt.Sprintf(`resource "unikorn_kubernetes_cluster" "web" {
  name      = "web"
  region_id = %[1]q
  version   = %[2]q

  workload_pools = {
    general = { flavor_id = %[3]q, replicas = 2, labels = { tier = "web" } }
  }
}

data "unikorn_kubernetes_cluster" "by_name" {
  name       = "web"
  depends_on = [unikorn_kubernetes_cluster.web]
}

data "unikorn_kubernetes_cluster" "by_id" {
  id = unikorn_kubernetes_cluster.web.id
}

data "unikorn_kubernetes_versions" "region" {
  region_id = %[1]q
}

data "unikorn_kubernetes_versions" "arm" {
  region_id    = %[1]q
  architecture = "aarch64"
}

output "by_name" {
  value = data.unikorn_kubernetes_cluster.by_name.id
}

output "pool" {
  value = data.unikorn_kubernetes_cluster.by_id.workload_pools["general"].labels["tier"]
}

output "latest" {
  value = data.unikorn_kubernetes_versions.region.latest
}

output "versions" {
  value = join(",", data.unikorn_kubernetes_versions.region.versions)
}

output "arm" {
  value = join(",", data.unikorn_kubernetes_versions.arm.versions)
}
`, env.RegionID, version, env.FlavorID))

	cli.Run("apply", "-auto-approve", "-input=false")

	id := clusterOf(t, env).Metadata.ID
	assert.Equal(t, id, output(t, cli, "by_name"))
	assert.Equal(t, "web", output(t, cli, "pool"))
	assert.Equal(t, version, output(t, cli, "latest"))
	assert.Equal(t, sandbox.KubernetesVersion+","+sandbox.KubernetesOlderVersion, output(t, cli, "versions"))
	assert.Equal(t, sandbox.KubernetesVersion, output(t, cli, "arm"))
}

// `terraform query` finds the project's clusters, each as its resource imports it.
func TestAccKubernetesClusterQuery(t *testing.T) {
	t.Parallel()
	acctest.SkipUnlessSupported(t, acctest.ListResources)

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)

	cli := userCLI(t, env, fmt.Sprintf(`resource "unikorn_kubernetes_cluster" "web" {
  name      = "web"
  region_id = %q
  version   = %q

  workload_pools = {
    general = { flavor_id = %q, replicas = 1 }
  }
}
`, env.RegionID, version, env.FlavorID))
	cli.Run("apply", "-auto-approve", "-input=false")

	cli.WriteFile("query.tfquery.hcl", `list "unikorn_kubernetes_cluster" "project" {
  provider         = unikorn
  include_resource = true

  config {
    project_id = "`+sandbox.ProjectID+`"
  }
}
`)
	found := cli.Run("query")
	assert.Contains(t, found, clusterOf(t, env).Metadata.ID)
	assert.Contains(t, found, "web")
}

func output(t *testing.T, cli *acctest.CLI, name string) string {
	t.Helper()

	var value string
	require.NoError(t, json.Unmarshal([]byte(cli.Run("output", "-json", name)), &value))

	return value
}
