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

	given := env.Given(t)
	given.AuthorityKey = acctest.NewAuthorityKey(t)
	given.Network = "unikorn_network.lost.id"

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		PreConfig: func() {
			for _, route := range []string{"/api/v2/networks", "/api/v2/securitygroups", "/api/v2/sshcertificateauthorities"} {
				env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: route, Status: 502, Count: 1, Phase: sandbox.FaultPhaseAfter})
			}
		},
		Config: env.ProviderConfig() + acctest.Block("unikorn_network", "lost", given) +
			acctest.Block("unikorn_security_group", "lost", given) +
			acctest.Block("unikorn_ssh_certificate_authority", "lost", given),
		Check: func(*terraform.State) error {
			after := recordsOf(t, env)
			assert.Len(t, after.networks, len(before.networks)+1, "one network, adopted")
			assert.Len(t, after.groups, len(before.groups)+1, "one security group, adopted")
			assert.Len(t, after.authorities, len(before.authorities)+1, "one authority, adopted")

			return nil
		},
	}))
}
