package catalogue_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// namesAre checks that the list at attribute of the data source address holds
// objects with exactly these names, in this order.
func namesAre(address, attribute string, names ...string) statecheck.StateCheck {
	checks := make([]knownvalue.Check, 0, len(names))
	for _, name := range names {
		checks = append(checks, knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name),
		}))
	}

	return statecheck.ExpectKnownValue(address, tfjsonpath.New(attribute), knownvalue.ListExact(checks))
}

// regionConfig is the provider block, a local region_id naming the environment's
// region, and blocks, the data sources that list in it.
func regionConfig(env *acctest.Environment, blocks string) string {
	return env.ProviderConfig() + `
locals {
  region_id = ` + acctest.Quote(env.RegionID) + `
}
` + blocks
}

// refusal is a configuration the plan refuses before any request: the data source's
// region_id, one more attribute (or none), and the error the plan gives.
type refusal struct {
	regionID, attribute, want string
}

// testRefusals checks that each configuration of dataSource fails its plan with its
// error; none reaches Unikorn, so they run against a real one too.
func testRefusals(t *testing.T, dataSource string, refusals ...refusal) {
	t.Helper()

	env := acctest.New(t)
	steps := make([]resource.TestStep, 0, len(refusals))

	for _, r := range refusals {
		steps = append(steps, resource.TestStep{
			Config:      env.ProviderConfig() + fmt.Sprintf("\ndata %q \"this\" {\n  region_id = %q\n  %s\n}\n", dataSource, r.regionID, r.attribute),
			ExpectError: regexp.MustCompile(r.want),
		})
	}

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		TerraformVersionChecks:   acctest.TerraformVersionChecks(),
		Steps:                    steps,
	})
}
