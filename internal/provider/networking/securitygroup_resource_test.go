package networking_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const groupAddress = "unikorn_security_group.web"

// groupConfig is a network named network and a group on it whose SSH rule admits
// sshFrom.
func groupConfig(env *acctest.Environment, network, sshFrom string) string {
	return env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_network" "a" {
  name      = "a"
  region_id = %[1]s
  prefix    = "10.30.0.0/24"
}

resource "unikorn_network" "b" {
  name      = "b"
  region_id = %[1]s
  prefix    = "10.31.0.0/24"
}

resource "unikorn_security_group" "web" {
  name       = "web"
  network_id = unikorn_network.%[2]s.id
  rules = [
    { direction = "ingress", protocol = "tcp", port = 443 },
    { direction = "ingress", protocol = "tcp", port = 22, prefix = %[3]s },
    { direction = "ingress", protocol = "udp", port = 60000, port_max = 61000 },
    { direction = "egress", protocol = "any" },
  ]
}
`, acctest.Quote(env.RegionID), network, acctest.Quote(sshFrom))
}

// TestAccSecurityGroupResource_lifecycle creates a group, changes a rule in place,
// moves it to another network by replacement and imports it.
func TestAccSecurityGroupResource_lifecycle(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	var firstID string

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: groupConfig(env, "a", "192.0.2.0/24"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(groupAddress, tfjsonpath.New("network_id"),
					"unikorn_network.a", tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("prefix"),
					knownvalue.StringExact("0.0.0.0/0")),
				statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("port_max"),
					knownvalue.Int64Exact(61000)),
			},
			Check: func(s *terraform.State) error {
				firstID = s.RootModule().Resources[groupAddress].Primary.ID

				return nil
			},
		},
		resource.TestStep{
			Config:           groupConfig(env, "a", "198.51.100.0/24"),
			ConfigPlanChecks: acctest.ExpectAction(groupAddress, plancheck.ResourceActionUpdate),
			Check: func(*terraform.State) error {
				group, err := env.Client.GetSecurityGroup(t.Context(), firstID)
				if err != nil {
					return err
				}

				assert.Equal(t, "198.51.100.0/24", group.Spec.Rules[1].Prefix, "the rule changed in place")

				return nil
			},
		},
		resource.TestStep{
			Config:            groupConfig(env, "b", "198.51.100.0/24"),
			ConfigPlanChecks:  acctest.ExpectAction(groupAddress, plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{identityIsID(groupAddress)},
			Check: func(*terraform.State) error {
				_, err := env.Client.GetSecurityGroup(t.Context(), firstID)
				assert.True(t, unikorn.IsNotFound(err), "the group on the old network is gone: %v", err)

				return nil
			},
		},
		resource.TestStep{ResourceName: groupAddress, ImportState: true, ImportStateVerify: true},
		resource.TestStep{
			ResourceName: groupAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
		},
	))
}

// TestAccSecurityGroupResource_invalidRules points each rule problem region would
// refuse at the attribute of the rule that has it, at plan.
func TestAccSecurityGroupResource_invalidRules(t *testing.T) {
	env := acctest.New(t)

	config := func(rule, message string) resource.TestStep {
		return resource.TestStep{
			PlanOnly: true,
			Config: env.ProviderConfig() + `
resource "unikorn_security_group" "web" {
  name       = "web"
  network_id = "a0000000-0000-4000-8000-00000000000a"
  rules = [
    { direction = "ingress", protocol = "tcp", port = 443 },
    ` + rule + `,
  ]
}
`,
			// Terraform shows the offending rule's line, which names the rule; the
			// attribute within it is checked by TestCheckRulePaths.
			ExpectError: regexp.MustCompile(`(?s)` + message + `.*` +
				acctest.NestedAttributeSource(rule, `resource "unikorn_security_group" "web"`)),
		}
	}

	resource.ParallelTest(t, env.TestCase(t,
		config(`{ direction = "ingress", protocol = "icmp", port = 8 }`, `Port on a protocol without ports`),
		config(`{ direction = "ingress", protocol = "tcp", port = 90, port_max = 80 }`, `Invalid port range`),
		config(`{ direction = "ingress", protocol = "tcp", port = 70000 }`, `Invalid port`),
		config(`{ direction = "ingress", protocol = "tcp", prefix = "10.0.0.1/8" }`, `Invalid rule prefix`),
		config(`{ direction = "sideways", protocol = "tcp" }`, `Invalid Attribute Value Match`),
	))
}
