package kubernetes_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	sandboxcluster "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes/cluster"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// clusterConfig is a cluster of the given pools, each `name = replicas` or a pool's
// whole object, and its kubeconfig read in the same run by a provisioner that checks
// its parts, as a provider block configured from them would take them.
func clusterConfig(env *acctest.Environment, version string, pools map[string]string) string {
	var b strings.Builder

	fmt.Fprintf(&b, `resource "unikorn_kubernetes_cluster" "web" {
  name      = "web"
  region_id = %q
  version   = %q

  workload_pools = {
`, env.RegionID, version)

	for name, pool := range pools {
		if !strings.HasPrefix(pool, "{") {
			pool = fmt.Sprintf("{ flavor_id = %q, replicas = %s }", env.FlavorID, pool)
		}

		fmt.Fprintf(&b, "    %s = %s\n", name, pool)
	}

	b.WriteString(`  }

  api = {
    allowed_prefixes = ["10.0.0.0/8"]
  }
}

ephemeral "unikorn_kubernetes_cluster_kubeconfig" "web" {
  cluster_id = unikorn_kubernetes_cluster.web.id
}

# Used where a provider block would use it: read in the run, passed on, never kept.
resource "terraform_data" "kubeconfig_read" {
  triggers_replace = [unikorn_kubernetes_cluster.web.id]

  provisioner "local-exec" {
    command = "test -n \"$HOST\" && test -n \"$CA\" && test -n \"$CERT\" && test -n \"$KEY\""
    environment = {
      HOST = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.host
      CA   = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.cluster_ca_certificate
      CERT = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.client_certificate
      KEY  = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.client_key
    }
  }
}
`)

	return b.String()
}

// clusterOf is the one cluster the sandbox holds, as it is.
func clusterOf(t *testing.T, env *acctest.Environment) unikorn.KubernetesCluster {
	t.Helper()

	clusters := env.KubernetesClusters(t)
	require.Len(t, clusters, 1, "exactly one cluster")

	return clusters[0]
}

// poolsOf are a cluster's pools, `name=replicas[/minimum]`.
func poolsOf(c unikorn.KubernetesCluster) []string {
	var out []string

	for _, pool := range c.Spec.WorkloadPools {
		entry := fmt.Sprintf("%s=%d", pool.Name, *pool.Machine.Replicas)
		if pool.Autoscaling != nil {
			entry += fmt.Sprintf("/%d", pool.Autoscaling.MinimumReplicas)
		}

		out = append(out, entry)
	}

	return out
}

// secrets are what must never be written down of a cluster's kubeconfig: its client
// key, in the forms it comes in.
func secrets(t *testing.T, env *acctest.Environment, c unikorn.KubernetesCluster) []string {
	t.Helper()

	raw, err := env.ClientAs(t, sandbox.DefaultToken).GetKubernetesClusterKubeconfig(t.Context(), c.Metadata.OrganizationID,
		c.Metadata.ProjectID, c.Metadata.ID)
	require.NoError(t, err)

	parsed, err := kubernetes.ParseKubeconfig(raw)
	require.NoError(t, err)
	require.NotEmpty(t, parsed.ClientKey)

	// A PEM's base64 body, line by line, and the whole as the kubeconfig carries it.
	var out []string

	for _, line := range strings.Split(parsed.ClientKey, "\n") {
		if len(line) > 20 && !strings.HasPrefix(line, "-----") {
			out = append(out, line)
		}
	}

	return append(out, base64.StdEncoding.EncodeToString([]byte(parsed.ClientKey)))
}

// A project user's cluster, as the issue asks of it: made with two workload pools
// and its kubeconfig read in the same apply; a second plan empty; a pool resized and
// one added in place, the cluster the same; the kubeconfig in neither the state, nor a
// plan, nor the logs at trace level; a destroy that leaves neither the cluster nor its
// quota, and the project's cluster manager, as the service keeps it.
func TestAccKubernetesClusterLife(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)

	cli := acctest.NewProcessCLI(t, t.TempDir())
	logs := filepath.Join(t.TempDir(), "terraform.log")
	cli.Setenv("TF_LOG", "trace")
	cli.Setenv("TF_LOG_PATH", logs)

	write := func(pools map[string]string) {
		cli.WriteConfig(env.ProjectUserSettings().Config() + clusterConfig(env, version, pools))
	}

	batch := fmt.Sprintf("{ flavor_id = %q, replicas = 3, min_replicas = 1, labels = { workload = \"batch\" } }", env.FlavorID)
	// dev_overrides serves the built provider with no init.
	write(map[string]string{"general": "2", "batch": batch})
	cli.Run("apply", "-auto-approve", "-input=false")

	created := clusterOf(t, env)
	assert.Equal(t, []string{"batch=3/1", "general=2"}, poolsOf(created))
	assert.Equal(t, unikorn.ProvisioningProvisioned, created.Metadata.ProvisioningStatus)

	_, err := cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(t, err, "the second plan is empty")

	write(map[string]string{"general": "3", "batch": batch, "extra": "1"})
	cli.Run("plan", "-input=false", "-out=resize.plan")
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	planned := cli.Run("show", "-json", "resize.plan")
	require.NoError(t, json.Unmarshal([]byte(planned[strings.Index(planned, "{"):]), &plan))

	for _, change := range plan.ResourceChanges {
		if change.Address == "unikorn_kubernetes_cluster.web" {
			assert.Equal(t, []string{"update"}, change.Change.Actions, "pools change in place")
		}
	}

	cli.Run("apply", "-auto-approve", "-input=false", "resize.plan")

	updated := clusterOf(t, env)
	assert.Equal(t, created.Metadata.ID, updated.Metadata.ID, "the same cluster")
	assert.Equal(t, []string{"batch=3/1", "extra=1", "general=3"}, poolsOf(updated))

	// Nothing of the kubeconfig is written down, whatever reads it.
	written := cli.ReadFile("terraform.tfstate") + planned + cli.ReadFile("resize.plan")
	logged, err := os.ReadFile(logs)
	require.NoError(t, err)
	require.Contains(t, string(logged), "kubeconfig", "the trace logs cover the kubeconfig's reads")

	for _, secret := range secrets(t, env, updated) {
		assert.NotContains(t, written, secret, "the state or a plan holds the kubeconfig's client key")
		assert.NotContains(t, string(logged), secret, "the logs hold the kubeconfig's client key")
	}

	cli.Run("destroy", "-auto-approve", "-input=false")

	assert.Empty(t, env.KubernetesClusters(t))

	var kinds []string

	for _, object := range env.LeftBehind(t) {
		kinds = append(kinds, object.Kind)
	}

	assert.Equal(t, []string{sandboxcluster.ObjectManager}, kinds,
		"nothing left but the project's cluster manager, which the service keeps: no cluster, no allocation")
}

// A create interrupted during its wait (Ctrl-C) keeps the cluster in the state,
// untainted; the next plan says it waits for it, and the next apply waits rather than
// making another.
func TestAccKubernetesClusterInterruptedCreate(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)

	cli := userCLI(t, env, clusterConfig(env, version, map[string]string{"general": "1"}))

	// Clusters take seconds to make, so that Terraform is interrupted while it waits.
	env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "3s"})

	running := cli.Start("apply", "-auto-approve", "-input=false")

	require.Eventually(t, func() bool { return len(env.KubernetesClusters(t)) == 1 }, time.Minute, 50*time.Millisecond)
	time.Sleep(500 * time.Millisecond) // well into the wait

	require.NoError(t, running.Interrupt())
	output, err := running.Wait()
	require.Error(t, err, "the interrupted apply fails:\n%s", output)
	assert.Contains(t, output, "Kubernetes cluster still being provisioned")

	state := cli.Run("state", "show", "unikorn_kubernetes_cluster.web")
	assert.NotContains(t, state, "tainted", "kept, not tainted")

	planned := cli.Run("plan", "-input=false")
	assert.Contains(t, planned, "still being provisioned")
	assert.Contains(t, planned, "update in-place")

	cli.Run("apply", "-auto-approve", "-input=false")

	assert.Equal(t, unikorn.ProvisioningProvisioned, clusterOf(t, env).Metadata.ProvisioningStatus, "waited for, not made again")

	output, err = cli.Try("plan", "-detailed-exitcode", "-input=false", "-out=debug.plan")
	if err != nil {
		t.Log(cli.Run("show", "-json", "debug.plan"))
	}
	require.NoError(t, err, "then nothing to do:\n%s", output)
}

// A create whose answer is lost after the service made the cluster is found again by
// its name and adopted, never sent again.
func TestAccKubernetesClusterLostCreate(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)
	env.AddFault(t, sandbox.FaultRule{
		Method: "POST", Route: sandboxcluster.Prefix + "/api/v1/organizations/{organizationID}/projects/{projectID}/clusters",
		Status: 502, Count: 1, Phase: sandbox.FaultPhaseAfter,
	})

	cli := userCLI(t, env, clusterConfig(env, version, map[string]string{"general": "1"}))
	cli.Run("apply", "-auto-approve", "-input=false")

	adopted := clusterOf(t, env)

	state := cli.Run("state", "show", "unikorn_kubernetes_cluster.web")
	assert.Contains(t, state, adopted.Metadata.ID)
}

// Quota running out is said at plan, naming the quota, for a cluster whose pools would
// exceed it; where the plan cannot read the quota (no identity endpoint), the
// service's refusal says the same at apply, and nothing is made.
func TestAccKubernetesClusterQuota(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)
	tooMany := fmt.Sprint(env.FreeQuota(t, "servers") + 1)

	cli := userCLI(t, env, clusterConfig(env, version, map[string]string{"general": tooMany}))
	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Contains(t, oneLine(output), "Quota `servers` would be exceeded")

	// Instances through compute need no identity endpoint; without one, the quota is
	// not read.
	blind := env.ProjectUserSettings()
	blind.Endpoints[services.Identity] = ""
	blind.Endpoints[services.Compute] = blind.Endpoints[services.Region] + sandbox.ComputePrefix
	cli.WriteConfig(blind.Config() + clusterConfig(env, version, map[string]string{"general": tooMany}))

	output, err = cli.Try("apply", "-auto-approve", "-input=false")
	require.Error(t, err)
	assert.Contains(t, oneLine(output), "organization's `servers` quota does not hold a new Kubernetes cluster")
	assert.Contains(t, oneLine(output), "Nothing was created")
	assert.Empty(t, env.KubernetesClusters(t))
}

// What the region's node images do not offer is said at plan, with what they do:
// a version none carries, and a pool whose flavor's architecture has no image of the
// version (the fixture's older version is x86_64 alone). Nothing is made.
func TestAccKubernetesClusterCatalogueChecks(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	arm := fmt.Sprintf("{ flavor_id = %q, replicas = 1 }", sandbox.FlavorArmID)

	cli := userCLI(t, env, clusterConfig(env, "v1.29.0", map[string]string{"general": "1"}))
	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Contains(t, oneLine(output), "Kubernetes version not offered")
	assert.Contains(t, oneLine(output), "it offers "+sandbox.KubernetesVersion+", "+sandbox.KubernetesOlderVersion+".")

	cli.WriteConfig(env.ProjectUserSettings().Config() + clusterConfig(env, sandbox.KubernetesOlderVersion, map[string]string{"arm": arm}))
	output, err = cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Contains(t, oneLine(output), "No image for the flavor's architecture")
	assert.Contains(t, oneLine(output), "images of Kubernetes "+sandbox.KubernetesOlderVersion+" for x86_64 only")

	cli.WriteConfig(env.ProjectUserSettings().Config() + clusterConfig(env, sandbox.KubernetesVersion, map[string]string{"arm": arm}))
	_, err = cli.Try("plan", "-input=false")
	require.NoError(t, err, "the newest version has aarch64 images")

	assert.Empty(t, env.KubernetesClusters(t))
}

// userCLI is a CLI whose configuration is the project user's provider block followed
// by config.
func userCLI(t *testing.T, env *acctest.Environment, config string) *acctest.CLI {
	t.Helper()

	cli := acctest.NewCLI(t, t.TempDir())
	cli.WriteConfig(env.ProjectUserSettings().Config() + config)
	cli.Run("init", "-input=false")

	return cli
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
