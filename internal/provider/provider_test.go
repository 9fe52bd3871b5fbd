package provider_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// The tests below clear the provider's environment variables, so they cannot run in
// parallel with others.

func TestAccProvider_missingEverything(t *testing.T) {
	for _, service := range services.All() {
		t.Setenv(service.EnvVar(), "")
	}

	t.Setenv(acctest.EnvToken, "")

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		TerraformVersionChecks:   acctest.TerraformVersionChecks(),
		Steps: []resource.TestStep{{
			Config: `
provider "unikorn" {}

data "unikorn_regions" "all" {}
`,
			ExpectError: regexp.MustCompile(`(?s)` +
				`Missing region_endpoint.*"region_endpoint".*UNIKORN_REGION_ENDPOINT.*` +
				`Missing identity_endpoint.*"identity_endpoint".*UNIKORN_IDENTITY_ENDPOINT.*` +
				`Missing token.*"token".*UNIKORN_TOKEN`),
		}},
	})
}

func TestAccProvider_missingToken(t *testing.T) {
	env := acctest.New(t)
	t.Setenv(acctest.EnvToken, "")

	settings := env.Settings
	settings.Token = ""

	resource.Test(t, env.TestCase(t, resource.TestStep{
		Config:      settings.Config() + `data "unikorn_regions" "all" {}`,
		ExpectError: regexp.MustCompile(`(?s)^.*Missing token.*UNIKORN_TOKEN`),
	}))
}

// TestAccProvider_environment configures the provider from the environment alone,
// the way the demo and CI do.
func TestAccProvider_environment(t *testing.T) {
	env := acctest.New(t)
	t.Setenv(services.Region.EnvVar(), env.Settings.Endpoints[services.Region])
	t.Setenv(services.Identity.EnvVar(), env.Settings.Endpoints[services.Identity])
	t.Setenv(acctest.EnvToken, env.Settings.Token)
	t.Setenv(acctest.EnvOrganizationID, env.Settings.OrganizationID)

	resource.Test(t, env.TestCase(t, resource.TestStep{
		Config: `
provider "unikorn" {}

data "unikorn_regions" "all" {}
`,
		Check: resource.TestCheckTypeSetElemNestedAttrs("data.unikorn_regions.all", "regions.*",
			map[string]string{"id": env.RegionID}),
	}))
}

func TestAccProvider_invalidRequestTimeout(t *testing.T) {
	env := acctest.New(t)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: `
provider "unikorn" {
  region_endpoint   = ` + acctest.Quote(env.Settings.Endpoints[services.Region]) + `
  identity_endpoint = ` + acctest.Quote(env.Settings.Endpoints[services.Identity]) + `
  token             = ` + acctest.Quote(env.Settings.Token) + `
  request_timeout   = "soon"
}

data "unikorn_regions" "all" {}
`,
		ExpectError: regexp.MustCompile(`(?s)Invalid duration.*request_timeout`),
	}))
}
