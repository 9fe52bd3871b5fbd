package region

import (
	"slices"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// AddFlavor adds a flavor to the catalogue while the test runs, for what the fixture
// flavors do not show (a flavor pinned to hosts).
func AddFlavor(t testing.TB, flavor unikorn.Flavor) {
	t.Helper()

	flavors = append(slices.Clone(flavors), flavor)

	t.Cleanup(func() { flavors = flavors[:len(flavors)-1] })
}

// FixtureFlavor is a flavor as the catalogue makes them.
var FixtureFlavor = fixtureFlavor
