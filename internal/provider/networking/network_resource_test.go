package networking_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

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

const networkAddress = "unikorn_network.this"

func networkConfig(env *acctest.Environment, prefix string, nameservers ...string) string {
	quoted := make([]string, len(nameservers))
	for i, nameserver := range nameservers {
		quoted[i] = acctest.Quote(nameserver)
	}

	return env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_network" "this" {
  name            = "made"
  description     = "made by terraform"
  tags            = { team = "web" }
  region_id       = %s
  prefix          = %s
  dns_nameservers = [%s]
}
`, acctest.Quote(env.RegionID), acctest.Quote(prefix), strings.Join(quoted, ", "))
}

// projectNetworks returns the networks region holds in the environment's project.
func projectNetworks(t *testing.T, env *acctest.Environment) []unikorn.Network {
	t.Helper()

	networks, err := env.Client.ListNetworks(t.Context(), unikorn.NetworkQuery{
		OrganizationIDs: []string{sandbox.OrganizationID}, ProjectIDs: []string{sandbox.ProjectID},
	})
	require.NoError(t, err)

	return networks
}

// TestAccNetworkResource_lifecycle creates a network, changes its DNS servers in
// place, replaces it for a new prefix, imports it, and leaves nothing behind.
func TestAccNetworkResource_lifecycle(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	var firstID, secondID string

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config:           networkConfig(env, "10.20.0.0/24", "192.0.2.53"),
			ConfigPlanChecks: acctest.ExpectAction(networkAddress, plancheck.ResourceActionCreate),
			ConfigStateChecks: attributesAre(networkAddress, map[string]knownvalue.Check{
				"organization_id": knownvalue.StringExact(sandbox.OrganizationID),
				"project_id":      knownvalue.StringExact(sandbox.ProjectID),
				"prefix":          knownvalue.StringExact("10.20.0.0/24"),
				"dns_nameservers": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("192.0.2.53")}),
				"tags":            knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("web")}),
			}),
			Check: func(s *terraform.State) error {
				firstID = s.RootModule().Resources[networkAddress].Primary.ID
				network, err := env.Client.GetNetwork(t.Context(), firstID)
				if err != nil {
					return err
				}

				assert.Equal(t, "provisioned", network.Metadata.ProvisioningStatus, "create waits for provisioning")

				return nil
			},
		},
		resource.TestStep{
			Config:           networkConfig(env, "10.20.0.0/24", "192.0.2.53", "192.0.2.54"),
			ConfigPlanChecks: acctest.ExpectAction(networkAddress, plancheck.ResourceActionUpdate),
			Check: func(s *terraform.State) error {
				network, err := env.Client.GetNetwork(t.Context(), firstID)
				if err != nil {
					return err
				}

				assert.Equal(t, []string{"192.0.2.53", "192.0.2.54"}, network.Spec.DNSNameservers, "updated in place")

				return nil
			},
		},
		resource.TestStep{
			Config:            networkConfig(env, "10.21.0.0/23", "192.0.2.53", "192.0.2.54"),
			ConfigPlanChecks:  acctest.ExpectAction(networkAddress, plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{identityIsID(networkAddress)},
			Check: func(s *terraform.State) error {
				secondID = s.RootModule().Resources[networkAddress].Primary.ID
				if secondID == firstID {
					return fmt.Errorf("a new prefix kept network %s", firstID)
				}

				_, err := env.Client.GetNetwork(t.Context(), firstID)
				assert.True(t, unikorn.IsNotFound(err), "the replaced network is gone: %v", err)

				return nil
			},
		},
		resource.TestStep{ResourceName: networkAddress, ImportState: true, ImportStateVerify: true},
		resource.TestStep{
			ResourceName: networkAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
		},
	))

	// Its own networks, by ID: other tests may make networks in the same project
	// meanwhile, against a Unikorn that all of them share.
	for _, network := range projectNetworks(t, env) {
		assert.NotContains(t, []string{firstID, secondID}, network.Metadata.ID, "destroy leaves no network behind")
	}
}

// TestAccNetworkResource_invalidPrefix refuses, at plan and on the attribute, every
// prefix region would refuse or rewrite.
func TestAccNetworkResource_invalidPrefix(t *testing.T) {
	env := acctest.New(t)

	steps := []resource.TestStep{}
	for prefix, message := range map[string]string{
		"10.0.0.0/25":  `smaller than a /24`,
		"10.0.0.1/24":  `has host bits set.*Write it as 10.0.0.0/24`,
		"fd00::/64":    `is not an IPv4 CIDR`,
		"not-a-prefix": `is not an IPv4 CIDR`,
	} {
		steps = append(steps, resource.TestStep{
			Config:      networkConfig(env, prefix),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid network prefix.*with unikorn_network.this.*prefix.*` + message),
		})
	}

	resource.ParallelTest(t, env.TestCase(t, steps...))
}

// TestAccNetworkResource_quota names the `networks` quota when the organization has
// used it up, and creates nothing.
func TestAccNetworkResource_quota(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	free := env.FreeQuota(t, "networks")

	for i := range free {
		_, err := env.Client.CreateNetwork(t.Context(), unikorn.NetworkCreate{
			Metadata: unikorn.WriteMetadata{Name: fmt.Sprintf("filler-%d", i)},
			Spec: unikorn.NetworkCreateSpec{
				NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{}},
				OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID, RegionID: sandbox.RegionID,
				Prefix: fmt.Sprintf("10.%d.0.0/24", 100+i),
			},
		})
		require.NoError(t, err)
	}

	full := len(projectNetworks(t, env))

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config:      networkConfig(env, "10.20.0.0/24"),
		ExpectError: regexp.MustCompile("(?s)`networks`\\s+quota.*total networks allocation of 6 would\\s+exceed\\s+quota\\s+limit\\s+of\\s+5"),
	}))

	assert.Len(t, projectNetworks(t, env), full, "a refused create leaves nothing")
}

// TestAccNetworkResource_inUse asks again while region refuses to delete a network a
// server stands on: when the server goes in time the delete succeeds, and when it
// stays, and is not being deleted, the delete ends in seconds with an error that
// names it.
func TestAccNetworkResource_inUse(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	config := env.ProviderConfig() + `
resource "unikorn_network" "this" {
  name      = "busy"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.40.0.0/24"
  timeouts  = { delete = "4s" }
}
`

	before := len(projectNetworks(t, env))

	var serverID string

	occupy := func(s *terraform.State) error {
		server, err := env.Client.CreateServer(t.Context(), unikorn.ServerCreate{
			Metadata: unikorn.WriteMetadata{Name: "squatter"},
			Spec: unikorn.ServerCreateSpec{
				ServerSpec: unikorn.ServerSpec{FlavorID: env.FlavorID, ImageID: env.ImageID},
				NetworkID:  s.RootModule().Resources[networkAddress].Primary.ID,
			},
		})
		if err == nil {
			serverID = server.Metadata.ID
		}

		return err
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{Config: config, Check: occupy},
		resource.TestStep{
			Config: config, Destroy: true,
			ExpectError: regexp.MustCompile(`(?s)nothing\s+that\s+uses\s+it\s+is\s+being\s+deleted.*What\s+uses\s+it:\s+server\s+"squatter".*Nothing\s+was\s+deleted`),
		},
		resource.TestStep{
			// The server goes while the delete is being asked again.
			Config: config, Destroy: true,
			PreConfig: func() {
				go func() {
					time.Sleep(time.Second)
					assert.NoError(t, env.Client.DeleteServer(context.WithoutCancel(t.Context()), serverID))
				}()
			},
		},
	))

	assert.Len(t, projectNetworks(t, env), before, "the network is gone once its server went")
}

// identityIsID checks that the identity of address is its ID.
func identityIsID(address string) statecheck.StateCheck {
	return statecheck.ExpectIdentityValueMatchesState(address, tfjsonpath.New("id"))
}

func routedNetworkConfig(env *acctest.Environment, reservations, routes string) string {
	return env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_network" "this" {
  name      = "routed"
  region_id = %s
  prefix    = "10.30.0.0/24"
  %s
  %s
}

data "unikorn_network" "this" {
  id = unikorn_network.this.id
}
`, acctest.Quote(env.RegionID), reservations, routes)
}

// TestAccNetworkResource_routesAndReservations changes routes in place, keeps a
// reservation the configuration half states through that change, replaces the network
// for a new reservation, and shows both in the data source.
func TestAccNetworkResource_routesAndReservations(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	route := `routes = [{ prefix = "192.168.0.0/16", nexthop = "10.30.0.1" }]`
	twoRoutes := `routes = [{ prefix = "192.168.0.0/16", nexthop = "10.30.0.1" }, { prefix = "172.16.0.0/12", nexthop = "10.30.0.2" }]`

	var firstID string

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: routedNetworkConfig(env, `reservations = { prefix_length = 26 }`, route),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(networkAddress, tfjsonpath.New("reservations"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"prefix_length": knownvalue.Int64Exact(26), "provider_reserved_prefix_length": knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("data.unikorn_network.this", tfjsonpath.New("routes"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"prefix": knownvalue.StringExact("192.168.0.0/16"), "nexthop": knownvalue.StringExact("10.30.0.1"),
					}),
				})),
				statecheck.ExpectKnownValue("data.unikorn_network.this", tfjsonpath.New("reservations").AtMapKey("prefix_length"),
					knownvalue.Int64Exact(26)),
			},
			Check: func(s *terraform.State) error {
				firstID = s.RootModule().Resources[networkAddress].Primary.ID

				return nil
			},
		},
		resource.TestStep{
			Config:           routedNetworkConfig(env, `reservations = { prefix_length = 26 }`, twoRoutes),
			ConfigPlanChecks: acctest.ExpectAction(networkAddress, plancheck.ResourceActionUpdate),
			Check: func(s *terraform.State) error {
				network, err := env.Client.GetNetwork(t.Context(), firstID)
				if err != nil {
					return err
				}

				assert.Len(t, network.Spec.Routes, 2, "routes change in place")

				return nil
			},
		},
		resource.TestStep{
			Config:           routedNetworkConfig(env, `reservations = { prefix_length = 27, provider_reserved_prefix_length = 29 }`, twoRoutes),
			ConfigPlanChecks: acctest.ExpectAction(networkAddress, plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(networkAddress, tfjsonpath.New("reservations").AtMapKey("provider_reserved_prefix_length"),
					knownvalue.Int64Exact(29)),
			},
		},
		resource.TestStep{
			// Without reservations in the configuration, region's stand.
			Config:           routedNetworkConfig(env, "", twoRoutes),
			ConfigPlanChecks: acctest.ExpectAction(networkAddress, plancheck.ResourceActionNoop),
		},
		resource.TestStep{ResourceName: networkAddress, ImportState: true, ImportStateVerify: true},
	))
}

// TestAccNetworkResource_invalidRouting refuses at plan, on the attribute, a route or
// reservation region would refuse.
func TestAccNetworkResource_invalidRouting(t *testing.T) {
	env := acctest.New(t)

	steps := []resource.TestStep{}
	for _, c := range []struct{ reservations, routes, message string }{
		{`reservations = { prefix_length = 24 }`, "", `Invalid reservation.*%s.*A reservation of /24 does not fit`},
		{`reservations = { prefix_length = 26, provider_reserved_prefix_length = 25 }`, "",
			`Invalid reservation.*%s.*The platform's part, /25,`},
		{"", `routes = [{ prefix = "192.168.0.0", nexthop = "10.30.0.1" }]`, `Invalid route.*%s.*"192.168.0.0" is not an IPv4 CIDR`},
		{"", `routes = [{ prefix = "192.168.0.0/16", nexthop = "gateway" }]`, `Invalid route.*%s.*"gateway" is not an IPv4 address`},
	} {
		source := acctest.NestedAttributeSource(c.reservations+c.routes, `resource "unikorn_network" "this"`)
		steps = append(steps, resource.TestStep{
			Config: routedNetworkConfig(env, c.reservations, c.routes), PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)` + fmt.Sprintf(c.message, source)),
		})
	}

	resource.ParallelTest(t, env.TestCase(t, steps...))
}
