package catalogue_test

import (
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
