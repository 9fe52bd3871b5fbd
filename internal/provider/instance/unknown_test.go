package instance_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccInstanceSecurityGroupUnknownAtPlan names, next to a group that exists, a
// security group made in the same apply: its ID is not known at plan, though the set
// is. The create and the update that adds another such group plan and apply, each
// server holding the groups asked for; a plan with a group still to be made plans,
// and the destroy (which plans the configuration first) goes through with it.
func TestAccInstanceSecurityGroupUnknownAtPlan(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		group := func(name string, port int) string {
			return fmt.Sprintf(`
resource "unikorn_security_group" %[1]q {
  name       = %[1]q
  network_id = %[2]s
  rules      = [{ direction = "ingress", protocol = "tcp", port = %[3]d }]
}
`, name, acctest.Quote(env.NetworkID), port)
		}
		groups := func(names ...string) string {
			ids := []string{acctest.Quote(sandbox.SecurityGroupAllowSSHID)}
			for _, name := range names {
				ids = append(ids, "unikorn_security_group."+name+".id")
			}

			return fmt.Sprintf("[%s]", strings.Join(ids, ", "))
		}

		base := baseAttrs(env)
		created := config(env, base.with("security_group_ids", groups("web"))) + group("web", 443)
		updated := config(env, base.with("security_group_ids", groups("web", "api"))) + group("web", 443) + group("api", 8443)
		pending := config(env, base.with("security_group_ids", groups("web", "api", "db"))) +
			group("web", 443) + group("api", 8443) + group("db", 5432)

		holds := func(names ...string) resource.TestCheckFunc {
			return func(s *terraform.State) error {
				want := []string{sandbox.SecurityGroupAllowSSHID}
				for _, name := range names {
					want = append(want, s.RootModule().Resources["unikorn_security_group."+name].Primary.ID)
				}

				servers := env.InstanceServers(t, s.RootModule().Resources[address].Primary.ID)
				if len(servers) != 1 || servers[0].Spec.Networking == nil {
					return fmt.Errorf("want one server with networking behind the instance, got %d", len(servers))
				}

				got := slices.Clone(servers[0].Spec.Networking.SecurityGroups)
				slices.Sort(got)
				slices.Sort(want)

				if !slices.Equal(got, want) {
					return fmt.Errorf("the server holds security groups %v, want %v", got, want)
				}

				return nil
			}
		}

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				Config: created,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
				}},
				Check: holds("web"),
			},
			resource.TestStep{
				Config: updated,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				Check: holds("web", "api"),
			},
			// Planned only: the destroy that ends the test plans this configuration,
			// whose group db is not made yet.
			resource.TestStep{
				Config: pending, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		))
	})
}
