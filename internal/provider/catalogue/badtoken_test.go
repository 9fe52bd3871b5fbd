package catalogue_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// Every catalogue look-up tells a user whose token is refused which call failed and
// that the token is the problem.
func TestAccCatalogue_badToken(t *testing.T) {
	cases := map[string]struct {
		config  func(env *acctest.Environment) string
		summary string
	}{
		"regions": {
			config:  func(*acctest.Environment) string { return `data "unikorn_regions" "this" {}` },
			summary: "Unable to list regions",
		},
		"flavors": {
			config: func(env *acctest.Environment) string {
				return `data "unikorn_flavors" "this" { region_id = ` + acctest.Quote(env.RegionID) + ` }`
			},
			summary: "Unable to list flavors",
		},
		"images": {
			config: func(env *acctest.Environment) string {
				return `data "unikorn_images" "this" { region_id = ` + acctest.Quote(env.RegionID) + ` }`
			},
			summary: "Unable to list images",
		},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			env := acctest.New(t)

			settings := env.Settings
			settings.Token = "not-a-valid-token"

			resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
				Config:      settings.Config() + tc.config(env) + "\n",
				ExpectError: regexp.MustCompile(`(?s)` + tc.summary + `.*401.*token\s+was\s+not\s+accepted`),
			}))
		})
	}
}
