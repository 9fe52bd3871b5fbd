package private_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// everyResourceKeepingItsCreationTime is one of each resource that keeps its creation time in private state:
// region's objects under the environment's provider, identity's under the empty
// organization's administrator.
func everyResourceKeepingItsCreationTime(env *acctest.Environment, authorityKey string) string {
	return env.ProviderConfigWithAdmin() + fmt.Sprintf(`
resource "unikorn_network" "kept" {
  name      = "kept"
  region_id = %[1]s
  prefix    = "10.71.0.0/24"

  reservations = {
    prefix_length                   = 25
    provider_reserved_prefix_length = 28
  }
}

resource "unikorn_security_group" "kept" {
  name       = "kept"
  network_id = unikorn_network.kept.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22 }]
}

resource "unikorn_ssh_certificate_authority" "kept" {
  name       = "kept"
  public_key = %[2]s
}

resource "unikorn_load_balancer" "kept" {
  name       = "kept"
  network_id = unikorn_network.kept.id
  listeners = {
    web = { protocol = "tcp", port = 443 }
  }
}

resource "unikorn_file_storage" "kept" {
  name             = "kept"
  region_id        = %[1]s
  storage_class_id = %[3]s
  size_gib         = 3
  attachments      = [unikorn_network.kept.id]
}

resource "unikorn_compute_instance" "kept" {
  name       = "kept"
  network_id = %[4]s
  flavor_id  = %[5]s
  image_id   = %[6]s
}

resource "unikorn_snapshot" "kept" {
  instance_id = unikorn_compute_instance.kept.id
  name        = "kept"
}

data "unikorn_roles" "all" {
  provider = unikorn.admin
}

resource "unikorn_group" "kept" {
  provider = unikorn.admin
  name     = "kept"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}

resource "unikorn_project" "kept" {
  provider  = unikorn.admin
  name      = "kept"
  group_ids = [unikorn_group.kept.id]
}

resource "unikorn_service_account" "kept" {
  provider  = unikorn.admin
  name      = "kept"
  group_ids = [unikorn_group.kept.id]
}
`, acctest.Quote(env.RegionID), acctest.Quote(authorityKey), acctest.Quote(sandbox.StorageClassStandardID),
		acctest.Quote(env.NetworkID), acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID))
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

	cli := acctest.ApplyInProcesses(t, everyResourceKeepingItsCreationTime(env, acctest.NewAuthorityKey(t)))

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
	for _, object := range []string{
		"/api/v2/networks/{networkID}",
		"/api/v2/securitygroups/{securityGroupID}",
		"/api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}",
		"/api/v2/loadbalancers/{loadBalancerID}",
		"/api/v2/filestorage/{filestorageID}",
		"/api/v1/organizations/{organizationID}/groups/{groupid}",
		"/api/v1/organizations/{organizationID}/projects/{projectID}",
	} {
		want["DELETE "+object], want["GET "+object] = 1, 1
	}

	// Identity reads a service account only in its organization's list.
	want["DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}"] = 1
	want["GET /api/v1/organizations/{organizationID}/serviceaccounts"] = 1

	assert.Equal(t, want, destroy())

	require.Empty(t, env.LeftBehind(t), "the destroy left nothing behind")
}
