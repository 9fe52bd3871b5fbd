package loadbalancing_test

import (
	"fmt"
	"net/netip"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const address = "unikorn_load_balancer.this"

// testCase is a test case of the environment's provider whose destroy must leave
// nothing behind.
func testCase(t *testing.T, env *acctest.Environment, steps ...resource.TestStep) resource.TestCase {
	t.Helper()

	c := env.TestCase(t, steps...)
	c.CheckDestroy = nothingLeft(t, env)

	return c
}

// nothingLeft checks, in the sandbox's own records (a list may show what was just
// deleted for the read lag), that destroy left no load balancer and no quota charged
// for one.
func nothingLeft(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	t.Helper()

	return func(*terraform.State) error {
		if !env.IsSandbox() {
			return nil
		}

		if lbs := env.LoadBalancers(t); len(lbs) > 0 {
			return fmt.Errorf("destroy left %d load balancer(s), the first %s", len(lbs), lbs[0].Metadata.ID)
		}

		for _, allocation := range env.Allocations(t) {
			if allocation.Spec.Kind == "loadbalancers.region.unikorn-cloud.org" {
				return fmt.Errorf("destroy left allocation %s of load balancer %s", allocation.Metadata.ID, allocation.Spec.ID)
			}
		}

		return nil
	}
}

// captured is an attribute of the resource remembered at one step, to compare later.
type captured struct{ value string }

func (c *captured) take(attribute string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		c.value = s.RootModule().Resources[address].Primary.Attributes[attribute]
		if c.value == "" {
			return fmt.Errorf("%s is empty", attribute)
		}

		return nil
	}
}

func (c *captured) same(attribute string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if now := s.RootModule().Resources[address].Primary.Attributes[attribute]; now != c.value {
			return fmt.Errorf("%s changed from %s to %s", attribute, c.value, now)
		}

		return nil
	}
}

// inNetwork checks that the VIP lies in the environment's network's prefix.
func inNetwork(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	t.Helper()

	return func(s *terraform.State) error {
		vip, err := netip.ParseAddr(s.RootModule().Resources[address].Primary.Attributes["vip_address"])
		if err != nil {
			return err
		}

		network, err := env.Client.GetNetwork(t.Context(), env.NetworkID)
		if err != nil {
			return err
		}

		if prefix := netip.MustParsePrefix(network.Status.Prefix); !prefix.Contains(vip) {
			return fmt.Errorf("VIP %s is not in the network's prefix %s", vip, prefix)
		}

		return nil
	}
}

// TestAccLoadBalancer_lifecycle drives a load balancer through its whole life under
// production's harshness (read lag, visibility): created with a public IP, changed in
// place (members, a listener added, tags, the public IP dropped and taken again) with
// its VIP kept, imported by ID and by identity, and destroyed without a trace.
func TestAccLoadBalancer_lifecycle(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))
	network := acctest.Quote(env.NetworkID)

	first := lb{
		Name: "front", Description: "in front of the web tier", Tags: map[string]string{"tier": "web"},
		NetworkID: network, PublicIP: boolean(true),
		Listeners: []listener{func() listener {
			l := web()
			l.AllowedCIDRs = []string{"192.0.2.0/24"}
			l.HealthCheck = &healthCheck{Interval: 20}

			return l
		}()},
	}

	second := first
	second.Tags = map[string]string{"tier": "web", "stage": "two"}
	second.PublicIP = boolean(false)
	second.Listeners = []listener{first.Listeners[0], {
		Name: "dns", Protocol: "udp", Port: 53, Members: []member{{"10.0.0.21", 53}},
	}}
	second.Listeners[0].Members = first.Listeners[0].Members[:1]

	third := second
	third.PublicIP = boolean(true)

	var vip, publicIP captured

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, first),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionCreate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("provisioning_status"), knownvalue.StringExact("provisioned")),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.ProjectID)),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("public_ip"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("listeners").AtMapKey("web").AtMapKey("idle_timeout_seconds"), knownvalue.Int64Exact(60)),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("listeners").AtMapKey("web").AtMapKey("health_check"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"interval_seconds": knownvalue.Int64Exact(20), "timeout_seconds": knownvalue.Int64Exact(5),
					"healthy_threshold": knownvalue.Int64Exact(2), "unhealthy_threshold": knownvalue.Int64Exact(2),
				})),
				statecheck.ExpectIdentity(address, map[string]knownvalue.Check{"id": knownvalue.NotNull()}),
			},
			Check: resource.ComposeTestCheckFunc(vip.take("vip_address"), publicIP.take("public_ip"), inNetwork(t, env)),
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, second),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("public_ip"), knownvalue.Null()),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("listeners").AtMapKey("dns").AtMapKey("idle_timeout_seconds"), knownvalue.Null()),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("listeners").AtMapKey("web").AtMapKey("members"), knownvalue.SetSizeExact(1)),
			},
			Check: resource.ComposeTestCheckFunc(vip.same("vip_address"), regionHas(t, env, func(got *unikorn.LoadBalancer) error {
				if got.Status.PublicIP != "" || len(got.Spec.Listeners) != 2 {
					return fmt.Errorf("region has public IP %q and %d listeners", got.Status.PublicIP, len(got.Spec.Listeners))
				}

				return nil
			})),
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, third),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("public_ip"), knownvalue.NotNull()),
			},
			Check: vip.same("vip_address"),
		},
		resource.TestStep{ResourceName: address, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		resource.TestStep{ResourceName: address, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
	))
}

// regionHas checks the load balancer in the sandbox's records.
func regionHas(t *testing.T, env *acctest.Environment, check func(*unikorn.LoadBalancer) error) resource.TestCheckFunc {
	t.Helper()

	return func(s *terraform.State) error {
		if !env.IsSandbox() {
			return nil
		}

		id := s.RootModule().Resources[address].Primary.ID

		for _, lb := range env.LoadBalancers(t) {
			if lb.Metadata.ID == id {
				return check(&lb)
			}
		}

		return fmt.Errorf("the sandbox has no load balancer %s", id)
	}
}

// TestAccLoadBalancer_regionsFormsShowNoDiff writes what region stores otherwise: a
// CIDR with host bits, an empty CIDR list, an empty health check, no members, no idle
// timeout. After the apply the plan is empty (the testing framework checks it), and
// so is the next one's, with a refresh under read lag before it.
func TestAccLoadBalancer_regionsFormsShowNoDiff(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))

	config := env.ProviderConfig() + render(t, lb{
		Name: "defaults", NetworkID: acctest.Quote(env.NetworkID),
		Listeners: []listener{
			{Name: "web", Protocol: "tcp", Port: 80, AllowedCIDRs: []string{"192.0.2.77/24", "10.1.2.3/32"}, HealthCheck: &healthCheck{}},
			{Name: "open", Protocol: "tcp", Port: 443, AllowedCIDRs: []string{}, Members: []member{}},
			{Name: "dns", Protocol: "udp", Port: 53},
		},
	})

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("listeners").AtMapKey("web").AtMapKey("allowed_cidrs"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("192.0.2.77/24"), knownvalue.StringExact("10.1.2.3/32")})),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("listeners").AtMapKey("open").AtMapKey("allowed_cidrs"), knownvalue.SetSizeExact(0)),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("public_ip_enabled"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(address, tfjsonpath.New("public_ip"), knownvalue.Null()),
			},
			Check: regionHas(t, env, func(got *unikorn.LoadBalancer) error {
				if cidrs := got.Spec.Listeners; len(cidrs) != 3 {
					return fmt.Errorf("region has %d listeners", len(cidrs))
				}

				return nil
			}),
		},
		resource.TestStep{
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		},
	))
}

// TestAccLoadBalancer_planDiagnostics stops at plan, on the listener and attribute
// concerned, every document region would refuse.
func TestAccLoadBalancer_planDiagnostics(t *testing.T) {
	env := acctest.New(t)
	network := acctest.Quote(env.NetworkID)

	plan := func(summary string, lbs lb) resource.TestStep {
		return resource.TestStep{
			Config:      env.ProviderConfig() + render(t, lbs),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(summary),
		}
	}

	with := func(edit func(*listener)) lb {
		l := web()
		edit(&l)

		return lb{Name: "refused", NetworkID: network, Listeners: []listener{l}}
	}

	steps := []resource.TestStep{
		plan(`Idle timeout on a UDP listener in listener "web"`,
			with(func(l *listener) { l.Protocol, l.Idle = "udp", 30 })),
		plan(`PROXY protocol on a UDP listener in listener "web"`,
			with(func(l *listener) { l.Protocol, l.Proxy = "udp", boolean(true) })),
		plan(`(?s)Health check timeout not below its interval in listener "web".*\(12 seconds\)`,
			with(func(l *listener) { l.HealthCheck = &healthCheck{Timeout: 12} })),
		plan(`(?s)Invalid member address in listener "web".*"web-1" is not an IPv4`,
			with(func(l *listener) { l.Members = []member{{"web-1", 80}} })),
		plan(`(?s)Invalid allowed CIDR in listener "web".*"10.0.0.0" is not an IPv4 CIDR`,
			with(func(l *listener) { l.AllowedCIDRs = []string{"10.0.0.0"} })),
		plan(`(?s)Invalid listener name in listener "Web"`,
			with(func(l *listener) { l.Name = "Web" })),
		plan(`(?s)Invalid listener port in listener "web"`,
			with(func(l *listener) { l.Port = 70000 })),
		plan(`(?s)Invalid member port in listener "web"`,
			with(func(l *listener) { l.Members = []member{{"10.0.0.21", 0}} })),
		plan(`(?s)Invalid idle timeout in listener "web"`,
			with(func(l *listener) { l.Idle = 90000 })),
		plan(`(?s)Listener port taken in listener "web".*"alt" and "web"`,
			lb{Name: "refused", NetworkID: network, Listeners: []listener{web(), {Name: "alt", Protocol: "tcp", Port: 80}}}),
		plan(`(?s)VIP outside the network.*192\.0\.2\.5 is not in the network's prefix`,
			lb{Name: "refused", NetworkID: network, VIP: "192.0.2.5", Listeners: []listener{web()}}),
		plan(`(?s)Invalid IPv4 address.*Write it as 10.0.0.5`,
			lb{Name: "refused", NetworkID: network, VIP: "::ffff:10.0.0.5", Listeners: []listener{web()}}),
		plan(`(?s)Network not found.*does not exist`,
			lb{Name: "refused", NetworkID: acctest.Quote("c0000000-0000-4000-8000-0000000000ff"), VIP: "10.0.0.5", Listeners: []listener{web()}}),
		plan(`(?s)listeners.*must contain at least 1 elements`,
			lb{Name: "refused", NetworkID: network}),
	}

	resource.ParallelTest(t, testCase(t, env, steps...))
}

// TestAccLoadBalancer_listenerChanges shows what a change of listener does: one of
// its protocol, port or PROXY protocol is refused at that listener (its plan warns,
// its apply stops before anything is sent), and a rename is an in-place update that
// keeps the load balancer and its VIP.
func TestAccLoadBalancer_listenerChanges(t *testing.T) {
	env := acctest.New(t)

	base := lb{Name: "listeners", NetworkID: acctest.Quote(env.NetworkID), Listeners: []listener{web()}}

	moved := base
	moved.Listeners = []listener{web()}
	moved.Listeners[0].Port = 8080

	proxied := base
	proxied.Listeners = []listener{web()}
	proxied.Listeners[0].Proxy = boolean(true)

	renamed := moved
	renamed.Listeners = []listener{moved.Listeners[0]}
	renamed.Listeners[0].Name = "web-8080"

	var vip, id captured

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config: env.ProviderConfig() + render(t, base),
			Check:  resource.ComposeTestCheckFunc(vip.take("vip_address"), id.take("id")),
		},
		resource.TestStep{
			Config:      env.ProviderConfig() + render(t, moved),
			ExpectError: regexp.MustCompile(`(?s)Listener cannot change in place in listener "web".*port from 80 to 8080`),
		},
		resource.TestStep{
			Config:      env.ProviderConfig() + render(t, proxied),
			ExpectError: regexp.MustCompile(`(?s)Listener cannot change in place in listener "web".*PROXY protocol from false`),
			Check:       resource.ComposeTestCheckFunc(vip.same("vip_address"), id.same("id")),
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, renamed),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionUpdate),
			Check:            resource.ComposeTestCheckFunc(vip.same("vip_address"), id.same("id")),
		},
	))
}

// TestAccLoadBalancer_replace replaces the load balancer for a new VIP and for a new
// network, and for nothing else.
func TestAccLoadBalancer_replace(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	pinned := lb{Name: "pinned", NetworkID: acctest.Quote(env.NetworkID), VIP: "10.0.0.200", Listeners: []listener{web()}}

	moved := pinned
	moved.VIP = "10.0.0.201"

	elsewhere := lb{Name: "pinned", NetworkID: acctest.Quote(sandbox.NetworkSecondaryID), Listeners: []listener{{Name: "web", Protocol: "tcp", Port: 80}}}

	var id captured

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config: env.ProviderConfig() + render(t, pinned),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("vip_address"), knownvalue.StringExact("10.0.0.200")),
			},
			Check: id.take("id"),
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, moved),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("vip_address"), knownvalue.StringExact("10.0.0.201")),
			},
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + render(t, elsewhere),
			ConfigPlanChecks: acctest.ExpectAction(address, plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(address, tfjsonpath.New("network_id"), knownvalue.StringExact(sandbox.NetworkSecondaryID)),
			},
		},
	))
}

// TestAccLoadBalancer_quota names the quota that refuses a load balancer, and creates
// nothing.
func TestAccLoadBalancer_quota(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	// Identity's allocations take up every public IP of the organization.
	free := env.FreeQuota(t, "publicips")

	_, err := env.Client.CreateAllocation(t.Context(), sandbox.OrganizationID, sandbox.ProjectID, unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{Kind: "test.example.com", ID: "c0000000-0000-4000-8000-0000000000aa",
			Allocations: []unikorn.ResourceAllocation{{Kind: "publicips", Committed: free}}},
	})
	require.NoError(t, err)

	public := lb{Name: "public", NetworkID: acctest.Quote(env.NetworkID), PublicIP: boolean(true), Listeners: []listener{web()}}

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config:      env.ProviderConfig() + render(t, public),
			ExpectError: regexp.MustCompile("(?s)`publicips` quota does not allow this load\\s+balancer.*Nothing\\s+was\\s+created"),
		},
	))

	assert.Empty(t, env.LoadBalancers(t))
}

func (c *captured) changed(attribute string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		now := s.RootModule().Resources[address].Primary.Attributes[attribute]
		if now == c.value {
			return fmt.Errorf("%s stayed %s", attribute, now)
		}

		c.value = now

		return nil
	}
}
