package networking_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccLostCreateAnswersAreAdopted loses the answer to every create after region
// acted on it: each object is found and adopted, never posted twice, and the next
// plan is empty.
func TestAccLostCreateAnswersAreAdopted(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)
	key := acctest.NewAuthorityKey(t)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		PreConfig: func() {
			for _, route := range []string{"/api/v2/networks", "/api/v2/securitygroups", "/api/v2/sshcertificateauthorities"} {
				env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: route, Status: 502, Count: 1, Phase: sandbox.FaultPhaseAfter})
			}
		},
		Config: env.ProviderConfig() + `
resource "unikorn_network" "lost" {
  name      = "lost"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.80.0.0/24"
}

resource "unikorn_security_group" "lost" {
  name       = "lost"
  network_id = unikorn_network.lost.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22 }]
}

resource "unikorn_ssh_certificate_authority" "lost" {
  name       = "lost"
  public_key = ` + acctest.Quote(key) + `
}
`,
		Check: func(*terraform.State) error {
			after := recordsOf(t, env)
			assert.Len(t, after.networks, len(before.networks)+1, "one network, adopted")
			assert.Len(t, after.groups, len(before.groups)+1, "one security group, adopted")
			assert.Len(t, after.authorities, len(before.authorities)+1, "one authority, adopted")

			return nil
		},
	}))
}
