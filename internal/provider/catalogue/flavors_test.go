package catalogue_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccFlavors_filters runs every filter over the sandbox's five fixture flavors,
// which the API lists smallest first: sim-tiny-1 (1 CPU, 2 GiB), sim-arm-2 (2, 4,
// aarch64), sim-standard-4 (4, 8), sim-metal-32 (32, 128, bare metal), sim-gpu-8 (8,
// 16, one NVIDIA L4).
func TestAccFlavors_filters(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	const all = "data.unikorn_flavors.all"

	cases := []filtered{
		{"all", nil, []string{"sim-tiny-1", "sim-arm-2", "sim-standard-4", "sim-metal-32", "sim-gpu-8"}},
		{"name", []string{`name = "sim-arm-2"`}, []string{"sim-arm-2"}},
		{"aarch64", []string{`architecture = "aarch64"`}, []string{"sim-arm-2"}},
		{"min_cpus", []string{"min_cpus = 8"}, []string{"sim-metal-32", "sim-gpu-8"}},
		{"min_memory", []string{"min_memory = 8"}, []string{"sim-standard-4", "sim-metal-32", "sim-gpu-8"}},
		{"gpu", []string{"gpu = true"}, []string{"sim-gpu-8"}},
		{"no_gpu", []string{"gpu = false"}, []string{"sim-tiny-1", "sim-arm-2", "sim-standard-4", "sim-metal-32"}},
		{"nvidia", []string{`gpu_vendor = "NVIDIA"`}, []string{"sim-gpu-8"}},
		{"amd", []string{`gpu_vendor = "AMD"`}, nil},
		{"combined", []string{`architecture = "x86_64"`, "min_cpus = 4", "gpu = false"}, []string{"sim-standard-4", "sim-metal-32"}},
		{"nothing", []string{`name = "no-such-flavor"`}, nil},
	}

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: filtersConfig(env, "unikorn_flavors", cases),
		ConfigStateChecks: append(filtersChecks("unikorn_flavors", "flavors", cases),
			// Every attribute, once with a GPU and once without.
			statecheck.ExpectKnownValue(all, tfjsonpath.New("flavors").AtSliceIndex(4), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":           knownvalue.StringExact(sandbox.FlavorGPUID),
				"name":         knownvalue.StringExact("sim-gpu-8"),
				"cpus":         knownvalue.Int64Exact(8),
				"memory":       knownvalue.Int64Exact(16),
				"disk":         knownvalue.Int64Exact(200),
				"architecture": knownvalue.StringExact("x86_64"),
				"baremetal":    knownvalue.Bool(false),
				"gpu": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"vendor": knownvalue.StringExact("NVIDIA"),
					"model":  knownvalue.StringExact("L4"),
					"memory": knownvalue.Int64Exact(16),
					"count":  knownvalue.Int64Exact(1),
				}),
			})),
			statecheck.ExpectKnownValue(all, tfjsonpath.New("flavors").AtSliceIndex(3), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":           knownvalue.StringExact(sandbox.FlavorMetalID),
				"name":         knownvalue.StringExact("sim-metal-32"),
				"cpus":         knownvalue.Int64Exact(32),
				"memory":       knownvalue.Int64Exact(128),
				"disk":         knownvalue.Int64Exact(1000),
				"architecture": knownvalue.StringExact("x86_64"),
				"baremetal":    knownvalue.Bool(true),
				"gpu":          knownvalue.Null(),
			})),
			statecheck.ExpectKnownValue(all, tfjsonpath.New("organization_id"), knownvalue.StringExact(sandbox.OrganizationID)),
		),
	}))
}

// TestAccFlavors_byName finds the environment's flavor by its name; it runs against
// a real Unikorn too.
func TestAccFlavors_byName(t *testing.T) {
	env := acctest.New(t)

	flavors, err := env.Client.ListFlavors(context.Background(), env.Settings.OrganizationID, env.RegionID)
	require.NoError(t, err)

	var name string

	for _, flavor := range flavors {
		if flavor.Metadata.ID == env.FlavorID {
			name = flavor.Metadata.Name
		}
	}

	require.NotEmpty(t, name, "flavor %s is not in region %s", env.FlavorID, env.RegionID)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProviderConfig() + `
data "unikorn_flavors" "this" {
  region_id = ` + acctest.Quote(env.RegionID) + `
  name      = ` + acctest.Quote(name) + `
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.unikorn_flavors.this", tfjsonpath.New("flavors"),
				knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":   knownvalue.StringExact(env.FlavorID),
					"name": knownvalue.StringExact(name),
				})})),
		},
	}))
}

func TestAccFlavors_invalidFilters(t *testing.T) {
	testRefusals(t, "unikorn_flavors",
		refusal{"any", `architecture = "sparc"`, `(?s)Invalid Attribute Value Match.*architecture.*"x86_64"`},
		refusal{"any", `gpu_vendor = "nvidia"`, `(?s)Invalid Attribute Value Match.*gpu_vendor.*"NVIDIA"`},
		refusal{"any", `min_cpus = 0`, `(?s)Invalid Attribute Value.*min_cpus.*at least 1`},
		// A name where an ID belongs fails the plan, before any request.
		refusal{"sandbox-1", "", `(?s)Invalid Attribute Value Match.*region_id.*lowercase UUID`},
	)
}

func TestAccFlavors_unknownRegion(t *testing.T) {
	env := acctest.New(t)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProviderConfig() + `
data "unikorn_flavors" "this" {
  region_id = "b0000000-0000-4000-8000-0000000000ff"
}
`,
		ExpectError: regexp.MustCompile(`(?s)Unable to list flavors.*404.*does\s+not\s+exist`),
	}))
}
