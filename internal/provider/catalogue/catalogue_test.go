package catalogue_test

import (
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
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
