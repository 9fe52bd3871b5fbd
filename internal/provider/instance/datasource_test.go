package instance_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// The data source finds an instance by ID and by network and name, and shows it as
// the resource does: a description it has none of is null, and so are tags.
func TestAccInstanceDataSourceByIDAndByName(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		lookups := `
data "unikorn_compute_instance" "by_id" {
  id = unikorn_compute_instance.test.id
}

data "unikorn_compute_instance" "by_name" {
  network_id = unikorn_compute_instance.test.network_id
  name       = unikorn_compute_instance.test.name
}
`
		shows := func(lookup string, tags knownvalue.Check) []statecheck.StateCheck {
			value := func(name string, check knownvalue.Check) statecheck.StateCheck {
				return statecheck.ExpectKnownValue(lookup, tfjsonpath.New(name), check)
			}

			return []statecheck.StateCheck{
				value("id", knownvalue.StringExact(instanceID(t, "web"))),
				value("name", knownvalue.StringExact("web")),
				value("project_id", knownvalue.StringExact(sandbox.ProjectID)),
				value("flavor_id", knownvalue.StringExact(env.FlavorID)),
				value("description", knownvalue.Null()),
				value("tags", tags),
			}
		}

		tagged := knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("web")})

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				Config: config(env, baseAttrs(env).with("tags", `{ team = "web" }`)) + lookups,
				ConfigStateChecks: append(shows("data.unikorn_compute_instance.by_id", tagged),
					shows("data.unikorn_compute_instance.by_name", tagged)...),
			},
			resource.TestStep{
				Config:            config(env, baseAttrs(env)) + lookups,
				ConfigStateChecks: shows("data.unikorn_compute_instance.by_id", knownvalue.Null()),
			},
		))
	})
}
