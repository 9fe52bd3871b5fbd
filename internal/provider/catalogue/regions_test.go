package catalogue_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

func TestAccRegions(t *testing.T) {
	env := acctest.New(t)

	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue("data.unikorn_regions.default", tfjsonpath.New("organization_id"),
			knownvalue.StringExact(env.Settings.OrganizationID)),
		statecheck.ExpectKnownValue("data.unikorn_regions.explicit", tfjsonpath.New("organization_id"),
			knownvalue.StringExact(env.Settings.OrganizationID)),
	}

	if env.IsSandbox() {
		// The fixture organization also sees the region private to it.
		checks = append(checks, statecheck.ExpectKnownValue("data.unikorn_regions.default", tfjsonpath.New("regions"),
			knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":   knownvalue.StringExact(sandbox.RegionID),
				"name": knownvalue.StringExact("sandbox-1"),
				"type": knownvalue.StringExact("simulated"),
			}), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":   knownvalue.StringExact(sandbox.PrivateRegionID),
				"name": knownvalue.StringExact("sandbox-private"),
				"type": knownvalue.StringExact("simulated"),
			})})))
	}

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProviderConfig() + `
data "unikorn_regions" "default" {}

data "unikorn_regions" "explicit" {
  organization_id = ` + acctest.Quote(env.Settings.OrganizationID) + `
}
`,
		ConfigStateChecks: checks,
		Check: resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckTypeSetElemNestedAttrs("data.unikorn_regions.default", "regions.*",
				map[string]string{"id": env.RegionID}),
			resource.TestCheckTypeSetElemNestedAttrs("data.unikorn_regions.explicit", "regions.*",
				map[string]string{"id": env.RegionID}),
		),
	}))
}

func TestAccRegions_organizationNotVisible(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	// As a member of the fixture organization: a platform administrator reaches every
	// organization, and region answers it an empty list of one that does not exist.
	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProjectUserSettings().Config() + `
data "unikorn_regions" "all" {
  organization_id = "a0000000-0000-4000-8000-0000000000ff"
}
`,
		ExpectError: regexp.MustCompile(`(?s)Unable to list regions.*40[34]`),
	}))
}

// Not parallel: it clears the environment variable the provider would fall back to.
func TestAccRegions_noOrganization(t *testing.T) {
	env := acctest.New(t)
	t.Setenv(acctest.EnvOrganizationID, "")

	settings := env.Settings
	settings.OrganizationID = ""

	resource.Test(t, env.TestCase(t, resource.TestStep{
		Config: settings.Config() + `data "unikorn_regions" "all" {}`,
		ExpectError: regexp.MustCompile(
			`(?s)Missing organization ID.*"organization_id".*UNIKORN_ORGANIZATION_ID`),
	}))
}
