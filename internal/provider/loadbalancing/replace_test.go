package loadbalancing_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// portOf checks region's record of the load balancer: one listener, web, on port.
func portOf(t *testing.T, env *acctest.Environment, port int) resource.TestCheckFunc {
	t.Helper()

	return func(s *terraform.State) error {
		id := s.RootModule().Resources[address].Primary.ID

		for _, record := range env.LoadBalancers(t) {
			if record.Metadata.ID == id {
				require.Len(t, record.Spec.Listeners, 1)
				assert.Equal(t, port, record.Spec.Listeners[0].Port)

				return nil
			}
		}

		t.Errorf("no record of load balancer %s", id)

		return nil
	}
}

// TestAccLoadBalancer_listenerChangeByReplacement lets a listener change its port
// under its name where the load balancer is replaced: for a new VIP in the same plan,
// and when tainted. The destroy that ends the test plans a configuration with such a
// change too.
func TestAccLoadBalancer_listenerChangeByReplacement(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	pinned := lb{Name: "pinned", NetworkID: acctest.Quote(env.NetworkID), VIP: "10.0.0.200", Listeners: []listener{web()}}

	moved := pinned
	moved.VIP = "10.0.0.201"
	moved.Listeners = []listener{web()}
	moved.Listeners[0].Port = 8080

	tainted := moved
	tainted.Listeners = []listener{web()}
	tainted.Listeners[0].Port = 8081

	pending := tainted
	pending.Listeners = []listener{web()}
	pending.Listeners[0].Port = 8082

	var id captured

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: env.ProviderConfig() + render(t, pinned), Check: id.take("id")},
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, moved),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionDestroyBeforeCreate),
			Check:            resource.ComposeTestCheckFunc(id.changed("id"), portOf(t, env, 8080)),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + render(t, tainted), Taint: []string{address},
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionDestroyBeforeCreate),
			Check:            resource.ComposeTestCheckFunc(id.changed("id"), portOf(t, env, 8081)),
		},
		// Planned only: the destroy that ends the test plans it.
		resource.TestStep{Config: env.ProviderConfig() + render(t, pending), PlanOnly: true, ExpectNonEmptyPlan: true},
	))
}

// TestAccLoadBalancer_listenerChangeReplaceFlag replaces a load balancer with
// `terraform apply -replace` whose listener changes its port in the same apply, through
// the CLI; then destroys it with another such change in the configuration.
func TestAccLoadBalancer_listenerChangeReplaceFlag(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	base := lb{Name: "flagged", NetworkID: acctest.Quote(env.NetworkID), Listeners: []listener{web()}}
	cli := env.CLI(t, render(t, base))
	cli.Run("apply", "-auto-approve", "-input=false")

	before := env.LoadBalancers(t)
	require.Len(t, before, 1)

	moved := base
	moved.Listeners = []listener{web()}
	moved.Listeners[0].Port = 8080
	cli.WriteConfig(env.ProviderConfig() + render(t, moved))

	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	output := cli.Run("plan", "-input=false")
	assert.Regexp(t, `Warning: Listener cannot change in place in listener "web".*Applying this plan stops`, flat(output))

	// With a VIP that replaces the load balancer in the same plan, nothing is said of it.
	pinned := moved
	pinned.VIP = "10.0.0.201"
	cli.WriteConfig(env.ProviderConfig() + render(t, pinned))
	output = cli.Run("plan", "-input=false")
	assert.Contains(t, flat(output), "must be replaced")
	assert.NotContains(t, flat(output), "cannot change in place")
	cli.WriteConfig(env.ProviderConfig() + render(t, moved))

	output = cli.Run("apply", "-auto-approve", "-input=false", "-replace="+address)
	assert.Contains(t, flat(output), "1 added, 0 changed, 1 destroyed")

	after := env.LoadBalancers(t)
	require.Len(t, after, 1)
	assert.NotEqual(t, before[0].Metadata.ID, after[0].Metadata.ID, "replaced")
	assert.Equal(t, 8080, after[0].Spec.Listeners[0].Port)

	moved.Listeners[0].Port = 9090
	cli.WriteConfig(env.ProviderConfig() + render(t, moved))
	cli.Run("destroy", "-auto-approve", "-input=false")
	assert.Empty(t, env.LoadBalancers(t), "destroyed")
}

// TestAccLoadBalancer_unknownAtPlan gives a listener a CIDR and a member next to
// known ones, and a network, that are not known at plan (made in the same apply): the
// create and an update that adds more such plan and apply, and region holds them.
func TestAccLoadBalancer_unknownAtPlan(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	later := func(name, value string) string {
		return fmt.Sprintf("\nresource \"terraform_data\" %q {\n  input = %q\n}\n", name, value)
	}
	network := fmt.Sprintf(`
resource "unikorn_network" "lb" {
  name      = "lb"
  region_id = %s
  prefix    = "10.60.0.0/24"
}
`, acctest.Quote(env.RegionID))

	listenerWith := func(members string) lb {
		l := web()
		l.Members = nil
		l.MembersExpr = members
		l.AllowedCIDRs = nil

		return lb{Name: "unknowns", NetworkID: "unikorn_network.lb.id", Listeners: []listener{l}}
	}

	created := listenerWith(`[{ address = "10.60.0.21", port = 8080 }, { address = terraform_data.a.output, port = 8080 }]`)
	updated := listenerWith(`[{ address = "10.60.0.21", port = 8080 }, { address = terraform_data.a.output, port = 8080 }, ` +
		`{ address = terraform_data.b.output, port = 8080 }]`)

	cidrs := func(config, exprs string) string {
		return strings.Replace(config, "      members", "      allowed_cidrs = "+exprs+"\n      members", 1)
	}

	createdConfig := env.ProviderConfig() + network + later("a", "10.60.0.22") + later("c", "192.0.2.0/24") +
		cidrs(render(t, created), `["198.51.100.0/24", terraform_data.c.output]`)
	updatedConfig := env.ProviderConfig() + network + later("a", "10.60.0.22") + later("b", "10.60.0.23") +
		later("c", "192.0.2.0/24") + later("d", "203.0.113.0/24") +
		cidrs(render(t, updated), `["198.51.100.0/24", terraform_data.c.output, terraform_data.d.output]`)

	holds := func(members, cidrs int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			id := s.RootModule().Resources[address].Primary.ID

			for _, record := range env.LoadBalancers(t) {
				if record.Metadata.ID == id {
					require.Len(t, record.Spec.Listeners, 1)
					assert.Len(t, record.Spec.Listeners[0].Pool.Members, members)
					assert.Len(t, record.Spec.Listeners[0].AllowedCIDRs, cidrs)

					return nil
				}
			}

			return fmt.Errorf("no record of load balancer %s", id)
		}
	}

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config:           createdConfig,
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionCreate),
			Check:            holds(2, 2),
		},
		resource.TestStep{
			Config:           updatedConfig,
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionUpdate),
			Check:            holds(3, 3),
		},
	))
}
