package networking_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// TestAccNamesFollowCoreRule refuses at plan, on the attribute, a name that region
// would refuse for any of the family's objects: core's name rule, not just a length.
func TestAccNamesFollowCoreRule(t *testing.T) {
	env := acctest.New(t)

	const unknownNetwork = "c0000000-0000-4000-8000-0000000000ff"

	steps := []resource.TestStep{}
	for typ, c := range map[string]struct{ noun, rest string }{
		"unikorn_network":                   {"network", `region_id = ` + acctest.Quote(env.RegionID) + "\n  prefix = \"10.40.0.0/24\""},
		"unikorn_security_group":            {"security group", `network_id = "` + unknownNetwork + "\"\n  rules = []"},
		"unikorn_ssh_certificate_authority": {"SSH certificate authority", `public_key = "ssh-ed25519 AAAA"`},
	} {
		for _, name := range []string{"web server", "-web", "web.", "a23456789012345678901234567890123456789012345678901234567890abcd"} {
			steps = append(steps, resource.TestStep{
				Config: env.ProviderConfig() + fmt.Sprintf(`
resource %q "bad" {
  name = %q
  %s
}
`, typ, name, c.rest),
				PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid ` + c.noun + ` name.*with ` + typ + `.bad.*name.*` +
					regexp.QuoteMeta(fmt.Sprintf("%q", name)) + `\s+is\s+not\s+a\s+valid`),
			})
		}
	}

	resource.ParallelTest(t, env.TestCase(t, steps...))
}
