package networking_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

const authorityAddress = "unikorn_ssh_certificate_authority.ops"

func authorityConfig(env *acctest.Environment, publicKey string) string {
	return env.ProviderConfig() + `
resource "unikorn_ssh_certificate_authority" "ops" {
  name       = "ops"
  public_key = ` + acctest.Quote(publicKey) + `
}
`
}

// TestAccSSHCertificateAuthorityResource_lifecycle keeps a key with a comment as
// configured although region drops the comment, replaces the authority for a new
// key, and imports it.
func TestAccSSHCertificateAuthorityResource_lifecycle(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	first, second := acctest.NewAuthorityKey(t), acctest.NewAuthorityKey(t)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			// plugin-testing fails the step if the plan after apply is not empty.
			Config: authorityConfig(env, first+"  ops@example.com"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(authorityAddress, tfjsonpath.New("public_key"),
					knownvalue.StringExact(first+"  ops@example.com")),
			},
		},
		resource.TestStep{
			Config:           authorityConfig(env, first+" renamed@example.com"),
			ConfigPlanChecks: acctest.ExpectAction(authorityAddress, plancheck.ResourceActionReplace),
		},
		resource.TestStep{
			Config:            authorityConfig(env, second),
			ConfigPlanChecks:  acctest.ExpectAction(authorityAddress, plancheck.ResourceActionReplace),
			ConfigStateChecks: []statecheck.StateCheck{identityIsID(authorityAddress)},
		},
		resource.TestStep{ResourceName: authorityAddress, ImportState: true, ImportStateVerify: true},
		resource.TestStep{
			ResourceName: authorityAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
		},
	))
}

// TestAccSSHCertificateAuthorityResource_invalidKey refuses, at plan, keys region
// would refuse.
func TestAccSSHCertificateAuthorityResource_invalidKey(t *testing.T) {
	env := acctest.New(t)
	key := acctest.NewAuthorityKey(t)

	step := func(publicKey, message string) resource.TestStep {
		return resource.TestStep{
			Config: authorityConfig(env, publicKey), PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)Invalid SSH certificate authority key.*public_key.*` + message),
		}
	}

	resource.ParallelTest(t, env.TestCase(t,
		step("not a key", `not an OpenSSH public key`),
		step(`command="true" `+key, `carries authorized_keys options`),
		step(key+"\n"+key, `more than one line`),
	))
}
