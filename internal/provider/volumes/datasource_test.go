package volumes_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccVolumeDataSource finds a volume by ID and by name (and network), with what
// the resource holds and whether it is attached; says which attribute to fix when a
// name finds none or several; and narrows a name to a network.
func TestAccVolumeDataSource(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	v := newVolume(t, env)
	v.Description = "found"
	v.Tags = `{ team = "data" }`
	found := env.ProviderConfig() + v.String() + `
data "unikorn_volume" "by_id" {
  id = unikorn_volume.this.id
}

data "unikorn_volume" "by_name" {
  name       = unikorn_volume.this.name
  depends_on = [unikorn_volume.this]
}
`
	// A twin of the name on another network: a look-up by name alone is ambiguous,
	// one narrowed to a network is not.
	twin := fmt.Sprintf(`
resource "unikorn_volume" "twin" {
  name            = "data"
  network_id      = %q
  volume_class_id = %q
  size_gib        = 1
}
`, sandbox.NetworkSecondaryID, env.VolumeClassID(t))

	byID := "data.unikorn_volume.by_id"
	same := func(address, attribute string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(address, tfjsonpath.New(attribute), volumeAddress, tfjsonpath.New(attribute), compare.ValuesSame())
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: found,
			ConfigStateChecks: []statecheck.StateCheck{
				same(byID, "id"), same("data.unikorn_volume.by_name", "id"),
				same(byID, "network_id"), same(byID, "region_id"), same(byID, "project_id"), same(byID, "organization_id"),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("description"), knownvalue.StringExact("found")),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("tags"), knownvalue.MapExact(map[string]knownvalue.Check{
					"team": knownvalue.StringExact("data"),
				})),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("volume_class_id"), knownvalue.StringExact(env.VolumeClassID(t))),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("size_gib"), knownvalue.Int64Exact(10)),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("attached"), knownvalue.Bool(false)),
			},
		},
		resource.TestStep{
			Config: found + `
data "unikorn_volume" "missing" {
  name = "nobody-has-this"
}
`,
			ExpectError: regexp.MustCompile(`(?s)Volume not found.*with data.unikorn_volume.missing.*"nobody-has-this"`),
		},
		resource.TestStep{
			Config: found + `
data "unikorn_volume" "missing" {
  id = "f0000000-0000-4000-8000-0000000000ff"
}
`,
			ExpectError: regexp.MustCompile(`(?s)Volume not found.*with data.unikorn_volume.missing`),
		},
		resource.TestStep{
			Config:      found + twin,
			ExpectError: regexp.MustCompile(`(?s)Ambiguous volume name.*with data.unikorn_volume.by_name`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + v.String() + twin + fmt.Sprintf(`
data "unikorn_volume" "by_name" {
  name       = "data"
  network_id = %q
  depends_on = [unikorn_volume.this, unikorn_volume.twin]
}
`, sandbox.NetworkSecondaryID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs("data.unikorn_volume.by_name", tfjsonpath.New("id"),
					"unikorn_volume.twin", tfjsonpath.New("id"), compare.ValuesSame()),
			},
		},
	))
}

// TestAccVolumeClassesDataSource narrows the classes by each filter, alone and
// together, and shows a class's bounds, flavors, media, encryption and performance.
func TestAccVolumeClassesDataSource(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	ids := func(name string, want ...string) statecheck.StateCheck {
		checks := make([]knownvalue.Check, len(want))
		for i, id := range want {
			checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)})
		}

		return statecheck.ExpectKnownValue("data.unikorn_volume_classes."+name, tfjsonpath.New("classes"), knownvalue.ListExact(checks))
	}

	standard, fast, private := sandbox.VolumeClassStandardID, sandbox.VolumeClassFastID, sandbox.VolumeClassPrivateID

	filters := map[string]string{
		"all":         ``,
		"region":      `region_id = ` + acctest.Quote(env.RegionID),
		"named":       `name = "sim-fast-volume"`,
		"none":        `name = "no-such-class"`,
		"nvme":        `media = "nvme"`,
		"ssd":         `media = "ssd"`,
		"encrypted":   `encrypted = true`,
		"plain":       `encrypted = false`,
		"small":       `size_gib = 5`,
		"huge":        `size_gib = 4096`,
		"arm":         `flavor_id = ` + acctest.Quote(sandbox.FlavorArmID),
		"metal":       `flavor_id = ` + acctest.Quote(sandbox.FlavorMetalID),
		"region_ssd":  "region_id = " + acctest.Quote(env.RegionID) + "\n  media = \"ssd\"\n  size_gib = 20",
		"gpu_and_big": "flavor_id = " + acctest.Quote(sandbox.FlavorGPUID) + "\n  size_gib = 2000",
	}

	config := env.ProviderConfig()
	for name, filter := range filters {
		config += fmt.Sprintf("\ndata \"unikorn_volume_classes\" %q {\n  %s\n}\n", name, filter)
	}

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: config,
		ConfigStateChecks: []statecheck.StateCheck{
			// By region, then name.
			ids("all", fast, standard, private),
			ids("region", fast, standard),
			ids("named", fast),
			ids("none"),
			ids("nvme", fast),
			ids("ssd", standard, private),
			ids("encrypted", fast),
			ids("plain", standard, private),
			ids("small", standard, private),
			ids("huge", standard),
			ids("arm", standard),
			ids("metal"),
			ids("region_ssd", standard),
			ids("gpu_and_big", fast, standard),
			statecheck.ExpectKnownValue("data.unikorn_volume_classes.named", tfjsonpath.New("classes"),
				knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":                   knownvalue.StringExact(fast),
					"name":                 knownvalue.StringExact("sim-fast-volume"),
					"description":          knownvalue.StringExact("Simulated NVMe block storage"),
					"region_id":            knownvalue.StringExact(sandbox.RegionID),
					"minimum_size_gib":     knownvalue.Int64Exact(10),
					"maximum_size_gib":     knownvalue.Int64Exact(2048),
					"supported_flavor_ids": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(sandbox.FlavorStandardID), knownvalue.StringExact(sandbox.FlavorGPUID)}),
					"media":                knownvalue.StringExact("nvme"),
					"encrypted":            knownvalue.Bool(true),
					"max_iops":             knownvalue.Int64Exact(25000),
					"max_throughput_mibps": knownvalue.Int64Exact(500),
				})})),
			statecheck.ExpectKnownValue("data.unikorn_volume_classes.region_ssd", tfjsonpath.New("classes").AtSliceIndex(0).AtMapKey("max_iops"),
				knownvalue.Null()),
		},
	}))
}
