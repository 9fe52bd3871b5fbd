package private_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes/cluster"
)

// everyResourceKeepingItsCreationTime is one of each resource that keeps its
// creation time in private state, each called "kept": region's objects under the
// environment's provider, a Kubernetes cluster under the project user's, identity's
// under the empty organization's administrator.
// The network is the one the security group and the load balancer stand on and the
// file storage attaches to; the group is of every identity object.
func everyResourceKeepingItsCreationTime(t *testing.T, env *acctest.Environment, authorityKey, kubernetesVersion string) string {
	t.Helper()

	given := env.Given(t)
	given.KubernetesVersion = acctest.Quote(kubernetesVersion)
	given.AuthorityKey = authorityKey
	given.Instance = "unikorn_compute_instance.kept.id"
	given.Role = `data.unikorn_roles.all.ids["user"]`
	given.Group = "unikorn_group.kept.id"

	onKept := acctest.With("network_id", "unikorn_network.kept.id")

	user := env.ProjectUserSettings()
	user.Alias = "user"

	return env.ProviderConfigWithAdmin() + user.Config() + strings.Join([]string{
		acctest.Block("unikorn_network", "kept", given),
		acctest.Block("unikorn_security_group", "kept", given, onKept),
		acctest.Block("unikorn_ssh_certificate_authority", "kept", given),
		acctest.Block("unikorn_load_balancer", "kept", given, onKept),
		acctest.Block("unikorn_file_storage", "kept", given, acctest.With("attachments", "[unikorn_network.kept.id]")),
		acctest.Block("unikorn_kubernetes_cluster", "kept", given, acctest.With("provider", "unikorn.user")),
		acctest.Block("unikorn_compute_instance", "kept", given),
		acctest.Block("unikorn_snapshot", "kept", given),
		"data \"unikorn_roles\" \"all\" {\n  provider = unikorn.admin\n}\n",
		acctest.Block("unikorn_group", "kept", given, acctest.Admin),
		acctest.Block("unikorn_project", "kept", given, acctest.Admin, acctest.With("group_ids", "[unikorn_group.kept.id]")),
		acctest.Block("unikorn_service_account", "kept", given, acctest.Admin),
	}, "\n")
}

// TestAccDestroyTrustsTheCreationTimeKeptInPrivateState destroys, without a refresh
// and so in provider processes that never read them, one of every resource whose
// delete believes a 404 at once for an object older than the read lag. Each learns
// that age from its private state: its delete is the first request about it and one
// read sees it gone. Without it each would read the object before deleting it.
func TestAccDestroyTrustsTheCreationTimeKeptInPrivateState(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	version := env.KubernetesVersion(t)
	cli := acctest.ApplyInProcesses(t, everyResourceKeepingItsCreationTime(t, env, acctest.NewAuthorityKey(t), version))

	// Older than the read lag the provider allows for, so that a 404 cannot be a cache
	// that has not seen the object yet; and gone as soon as deleted, so that the one
	// read after each delete sees it gone.
	time.Sleep(cloud.DefaultReadLag + cloud.CreationMargin)
	env.UpdateSettings(t, sandbox.Settings{DeprovisionDelay: "0s"})

	destroy := func(args ...string) map[string]int {
		env.ResetStats(t)
		cli.Run(append([]string{"destroy", "-auto-approve", "-input=false", "-refresh=false"}, args...)...)

		return env.Stats(t).Routes
	}

	// The instance first, with its snapshot: its own delete reads its network.
	routes := destroy("-target=unikorn_compute_instance.kept")
	assert.Equal(t, 1, routes["DELETE /api/v1/organizations/{organizationID}/regions/{regionID}/images/{imageID}"])
	assert.Equal(t, 1, routes["GET /api/v2/regions/{regionID}/images"], "the snapshot was read once, gone")

	// Then the rest, each a delete and one read that sees it gone, and nothing else.
	want := map[string]int{}
	for _, kind := range readByID {
		want["DELETE "+kind.route], want["GET "+kind.route] = 1, 1
	}

	// Identity reads a service account only in its organization's list, and the
	// Kubernetes service a cluster in its organization's.
	want["DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}"] = 1
	want["GET /api/v1/organizations/{organizationID}/serviceaccounts"] = 1
	want["DELETE "+cluster.Prefix+"/api/v1/organizations/{organizationID}/projects/{projectID}/clusters/{clusterID}"] = 1
	want["GET "+cluster.Prefix+"/api/v1/organizations/{organizationID}/clusters"] = 1

	assert.Equal(t, want, destroy())

	// The project's cluster manager stays, as the service keeps it.
	left := slices.DeleteFunc(env.LeftBehind(t), func(o sandbox.Object) bool {
		return o.Kind == cluster.ObjectManager
	})
	require.Empty(t, left, "the destroy left nothing behind")
}
