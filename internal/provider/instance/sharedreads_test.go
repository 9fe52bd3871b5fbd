package instance_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// instances are what a realistic configuration repeats: many instances in one
// security group, trusting one SSH certificate authority, tagged.
func sharedReadsConfig(env *acctest.Environment, count int, version string) string {
	return fmt.Sprintf(`
resource "unikorn_compute_instance" "web" {
  count = %d

  name                         = "web-${count.index}"
  network_id                   = %q
  flavor_id                    = %q
  image_id                     = %q
  security_group_ids           = [%q]
  ssh_certificate_authority_id = %q
  tags                         = { role = "web", version = %q }
}
`, count, env.NetworkID, env.FlavorID, env.ImageID, sandbox.SecurityGroupAllowSSHID, sandbox.SSHCAID, version)
}

// Every instance's checks (the plan's, the apply's plan, the create's, an update's)
// read the security group and the SSH certificate authority they refer to: each is
// read at most once by a phase, however many instances there are, where each instance
// used to read them at each check.
func TestAccInstancesShareTheReadsOfWhatTheyReferTo(t *testing.T) {
	// The fixture organization's quota allows ten servers.
	const instances = 10

	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		cli := env.CLI(t, sharedReadsConfig(env, instances, "1"))
		t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

		reads := func(phase string) {
			t.Helper()

			routes := env.Stats(t).Routes
			group, authority := routes[readSecurityGroup], routes[readSSHCA]
			t.Logf("%s: %d reads of the security group, %d of the SSH certificate authority for %d instances", phase, group, authority, instances)
			assert.LessOrEqual(t, group, 1, "%s read the security group more than once", phase)
			assert.LessOrEqual(t, authority, 1, "%s read the SSH certificate authority more than once", phase)

			env.ResetStats(t)
		}

		env.ResetStats(t)
		cli.Run("plan", "-input=false", "-out=create.tfplan")
		reads("plan")

		cli.Run("apply", "-input=false", "create.tfplan")
		reads("apply")

		cli.WriteConfig(env.ProviderConfig() + sharedReadsConfig(env, instances, "2"))
		cli.Run("apply", "-auto-approve", "-input=false")
		reads("tag change")
	})
}

// The routes of the checks' reads.
const (
	readSecurityGroup = "GET /api/v2/securitygroups/{securityGroupID}"
	readSSHCA         = "GET /api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}"
)
