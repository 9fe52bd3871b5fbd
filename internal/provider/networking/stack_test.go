package networking_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// records is what region and identity hold in the environment's project: everything a
// configuration could leave behind.
type records struct {
	networks, groups, authorities, servers, images, allocations []string
}

func recordsOf(t *testing.T, env *acctest.Environment) records {
	t.Helper()

	ctx := t.Context()
	scope := []string{sandbox.OrganizationID}
	project := []string{sandbox.ProjectID}
	var r records

	networks, err := env.Client.ListNetworks(ctx, unikorn.NetworkQuery{OrganizationIDs: scope, ProjectIDs: project})
	require.NoError(t, err)
	for _, network := range networks {
		r.networks = append(r.networks, network.Metadata.ID)
	}

	groups, err := env.Client.ListSecurityGroups(ctx, unikorn.SecurityGroupQuery{OrganizationIDs: scope, ProjectIDs: project})
	require.NoError(t, err)
	for _, group := range groups {
		r.groups = append(r.groups, group.Metadata.ID)
	}

	authorities, err := env.Client.ListSSHCertificateAuthorities(ctx, unikorn.SSHCertificateAuthorityQuery{OrganizationIDs: scope, ProjectIDs: project})
	require.NoError(t, err)
	for _, authority := range authorities {
		r.authorities = append(r.authorities, authority.Metadata.ID)
	}

	for _, server := range env.Servers(t, unikorn.ServerQuery{OrganizationIDs: scope, ProjectIDs: project}) {
		r.servers = append(r.servers, server.Metadata.ID)
	}

	images, err := env.Client.ListImagesV2(ctx, env.RegionID, unikorn.ImageQuery{
		OrganizationIDs: scope, Scope: "owned",
		Status: []string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed},
	})
	require.NoError(t, err)
	for _, image := range images {
		r.images = append(r.images, image.Metadata.ID)
	}

	for _, allocation := range env.Allocations(t) {
		r.allocations = append(r.allocations, allocation.Metadata.ID)
	}

	return r
}

// stackConfig is a project built from nothing: a network, two security groups, an
// SSH certificate authority, an instance, a snapshot image of it and a second
// instance booted from that image. sshFrom and nameserver are what the test changes in place.
func stackConfig(env *acctest.Environment, key, sshFrom, nameserver string, restored bool) string {
	config := env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_network" "stack" {
  name            = "stack"
  region_id       = %[1]s
  prefix          = "10.60.0.0/24"
  dns_nameservers = [%[3]s]
}

resource "unikorn_security_group" "ssh" {
  name       = "ssh"
  network_id = unikorn_network.stack.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22, prefix = %[2]s }]
}

resource "unikorn_security_group" "web" {
  name       = "web"
  network_id = unikorn_network.stack.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 443 }]
}

resource "unikorn_ssh_certificate_authority" "ops" {
  name       = "ops"
  public_key = %[4]s
}

resource "unikorn_compute_instance" "web" {
  name                         = "web"
  network_id                   = unikorn_network.stack.id
  flavor_id                    = %[5]s
  image_id                     = %[6]s
  security_group_ids           = [unikorn_security_group.ssh.id, unikorn_security_group.web.id]
  ssh_certificate_authority_id = unikorn_ssh_certificate_authority.ops.id
}

resource "unikorn_snapshot" "web" {
  instance_id = unikorn_compute_instance.web.id
  name        = "web-golden"
}
`, acctest.Quote(env.RegionID), acctest.Quote(sshFrom), acctest.Quote(nameserver), acctest.Quote(key),
		acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID))

	if restored {
		config += `
resource "unikorn_compute_instance" "restored" {
  name               = "restored"
  network_id         = unikorn_network.stack.id
  flavor_id          = unikorn_compute_instance.web.flavor_id
  image_id           = unikorn_snapshot.web.id
  security_group_ids = [unikorn_security_group.web.id]
}
`
	}

	return config
}

// TestAccStack_fromEmptyProject builds a project's infrastructure from nothing on
// each instance back end, changes a rule and a DNS server in place, and destroys it
// all, leaving nothing it made in region's or identity's records: every object,
// the snapshot image included, is a resource Terraform manages.
func TestAccStack_fromEmptyProject(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessFixtures(t)

		before := recordsOf(t, env)
		key := acctest.NewAuthorityKey(t)

		inPlace := []plancheck.PlanCheck{
			plancheck.ExpectResourceAction("unikorn_network.stack", plancheck.ResourceActionUpdate),
			plancheck.ExpectResourceAction("unikorn_security_group.ssh", plancheck.ResourceActionUpdate),
			plancheck.ExpectResourceAction("unikorn_compute_instance.web", plancheck.ResourceActionNoop),
			plancheck.ExpectResourceAction("unikorn_snapshot.web", plancheck.ResourceActionNoop),
			plancheck.ExpectResourceAction("unikorn_compute_instance.restored", plancheck.ResourceActionNoop),
			plancheck.ExpectResourceAction("unikorn_security_group.web", plancheck.ResourceActionNoop),
			plancheck.ExpectResourceAction("unikorn_ssh_certificate_authority.ops", plancheck.ResourceActionNoop),
		}

		resource.Test(t, env.TestCase(t,
			resource.TestStep{Config: stackConfig(env, key, "192.0.2.0/24", "192.0.2.53", false)},
			resource.TestStep{
				Config: stackConfig(env, key, "192.0.2.0/24", "192.0.2.53", true),
				Check: func(s *terraform.State) error {
					after := recordsOf(t, env)
					assert.Len(t, after.servers, len(before.servers)+2, "two instances")
					assert.Len(t, after.images, len(before.images)+1, "one snapshot")
					assert.Len(t, after.allocations, len(before.allocations)+3, "the two instances and the network charged")

					restored := s.RootModule().Resources["unikorn_compute_instance.restored"].Primary.Attributes["image_id"]
					assert.Equal(t, s.RootModule().Resources["unikorn_snapshot.web"].Primary.ID, restored,
						"the second instance boots from the snapshot")

					return nil
				},
			},
			resource.TestStep{
				Config:           stackConfig(env, key, "198.51.100.0/24", "192.0.2.54", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: inPlace},
				Check: func(s *terraform.State) error {
					network, err := env.Client.GetNetwork(t.Context(), s.RootModule().Resources["unikorn_network.stack"].Primary.ID)
					if err != nil {
						return err
					}

					assert.Equal(t, []string{"192.0.2.54"}, network.Spec.DNSNameservers)

					return nil
				},
			},
		))

		after := recordsOf(t, env)
		assert.ElementsMatch(t, before.networks, after.networks, "no network left")
		assert.ElementsMatch(t, before.groups, after.groups, "no security group left")
		assert.ElementsMatch(t, before.authorities, after.authorities, "no SSH certificate authority left")
		assert.ElementsMatch(t, before.servers, after.servers, "no server left")
		assert.ElementsMatch(t, before.images, after.images, "no image left")
		assert.ElementsMatch(t, before.allocations, after.allocations, "no allocation left")
	})
}
