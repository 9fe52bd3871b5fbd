package loadbalancing_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccLoadBalancerDataSource looks a load balancer up by ID and by name, narrowed
// by network where two share the name, and says which when a name is ambiguous. One
// with neither description nor tags has a null description and empty tags.
func TestAccLoadBalancerDataSource(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	front := lb{Label: "front", Name: "front", NetworkID: acctest.Quote(env.NetworkID), PublicIP: boolean(true), Listeners: []listener{web()}}
	twin := lb{Label: "twin", Name: "front", NetworkID: acctest.Quote(sandbox.NetworkSecondaryID), Listeners: []listener{{Name: "web", Protocol: "tcp", Port: 80}}}
	made := env.ProviderConfig() + render(t, front, twin)

	lookups := made + fmt.Sprintf(`
data "unikorn_load_balancer" "by_id" {
  id = unikorn_load_balancer.front.id
}

data "unikorn_load_balancer" "by_name" {
  name       = "front"
  network_id = %s
  depends_on = [unikorn_load_balancer.front, unikorn_load_balancer.twin]
}
`, acctest.Quote(env.NetworkID))

	ambiguous := made + `
data "unikorn_load_balancer" "ambiguous" {
  name       = "front"
  depends_on = [unikorn_load_balancer.front, unikorn_load_balancer.twin]
}
`

	byID, byName := "data.unikorn_load_balancer.by_id", "data.unikorn_load_balancer.by_name"

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: made},
		resource.TestStep{
			Config: lookups,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(byID, tfjsonpath.New("vip_address"), "unikorn_load_balancer.front", tfjsonpath.New("vip_address"), compareEqual{}),
				statecheck.CompareValuePairs(byName, tfjsonpath.New("id"), "unikorn_load_balancer.front", tfjsonpath.New("id"), compareEqual{}),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("public_ip"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("listeners").AtMapKey("web").AtMapKey("members"), knownvalue.SetSizeExact(2)),
				statecheck.ExpectKnownValue(byName, tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.ProjectID)),
				// A look-up's description is null when there is none, its tags always a
				// map, so that expressions over them need no null check.
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("description"), knownvalue.Null()),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("tags"), knownvalue.MapExact(map[string]knownvalue.Check{})),
			},
		},
		resource.TestStep{
			Config:      ambiguous,
			ExpectError: regexp.MustCompile(`(?s)Ambiguous load balancer name.*The name "front" does not say which load\s+balancer\s+is\s+meant:\s+2\s+in\s+project`),
		},
	))
}

// compareEqual is the value comparer of two equal values.
type compareEqual struct{}

func (compareEqual) CompareValues(values ...any) error {
	for _, v := range values[1:] {
		if !assert.ObjectsAreEqual(values[0], v) {
			return fmt.Errorf("%v differs from %v", v, values[0])
		}
	}

	return nil
}

// Configuration that `terraform query` generates for load balancers imports them, and
// the plan after the import is empty.
func TestAccLoadBalancerQueryGeneratesConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	found := lb{
		Name: "found", Description: "found by a query", Tags: map[string]string{"run": "query"},
		NetworkID: acctest.Quote(env.NetworkID), VIP: "10.0.0.150", PublicIP: boolean(true),
		Listeners: []listener{
			func() listener {
				l := web()
				l.AllowedCIDRs = []string{"192.0.2.0/24"}
				l.HealthCheck = &healthCheck{Interval: 30, Timeout: 4}

				return l
			}(),
			{Name: "dns", Protocol: "udp", Port: 53, Members: []member{{"10.0.0.21", 53}}},
		},
	}

	query := env.QueryWhatOthersMade(t, render(t, found), fmt.Sprintf(`
list "unikorn_load_balancer" "found" {
  provider         = unikorn
  include_resource = true
  config {
    network_id = %s
    tags       = { run = "query" }
  }
}
`, acctest.Quote(env.NetworkID)))

	assert.Contains(t, query.Output, "found (")
	assert.Regexp(t, `resource "unikorn_load_balancer"`, query.Generated)
	assert.Contains(t, query.Generated, `"192.0.2.0/24"`)
	assert.Contains(t, query.Plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")

	query.ImportLeavesNothingToDo(t)
}
