package catalogue_test

import (
	"fmt"
	"regexp"
	"strings"
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

// filtered is one look-up of a filters test: its label, the filters it sets beside
// region_id, and the names it must list, in order.
type filtered struct {
	label   string
	filters []string
	names   []string
}

// filtersConfig is the provider block and a look-up of dataSource in the
// environment's region for each of cases.
func filtersConfig(env *acctest.Environment, dataSource string, cases []filtered) string {
	var blocks strings.Builder

	for _, c := range cases {
		fmt.Fprintf(&blocks, "\ndata %q %q {\n  region_id = local.region_id\n", dataSource, c.label)

		for _, filter := range c.filters {
			fmt.Fprintf(&blocks, "  %s\n", filter)
		}

		blocks.WriteString("}\n")
	}

	return regionConfig(env, blocks.String())
}

// filtersChecks checks that each of cases lists, at attribute, the names it must.
func filtersChecks(dataSource, attribute string, cases []filtered) []statecheck.StateCheck {
	checks := make([]statecheck.StateCheck, 0, len(cases))
	for _, c := range cases {
		checks = append(checks, namesAre("data."+dataSource+"."+c.label, attribute, c.names...))
	}

	return checks
}
