package diagnostic_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

func TestNamesListsFewAndTheNearestOfMany(t *testing.T) {
	t.Parallel()

	assert.Equal(t, "There are none.", diagnostic.Names("usr", nil))
	assert.Equal(t, `There are: "administrator", "auditor", "reader", "user".`,
		diagnostic.Names("usr", []string{"user", "reader", "auditor", "administrator", "user"}))

	var many []string
	for i := range 30 {
		many = append(many, fmt.Sprintf("net-%02d", i))
	}

	many = append(many, "web-frontend")
	assert.Equal(t, `The nearest of the 31 there are: "net-10", "net-11", "net-12", "net-13", "net-14", "net-15", "net-16", "net-17".`,
		diagnostic.Names("net-1O", many))
	assert.Contains(t, diagnostic.Names("web-fronted", many), `"web-frontend"`)
}

// TestAccLookupsByNameListTheNames looks flavors, images, file storage classes and a
// network up by names that none has: a filter's empty result comes with a warning that
// lists the names there are, above the error an index into it gives; a look-up of one
// object fails listing them.
func TestAccLookupsByNameListTheNames(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	region := acctest.Quote(env.RegionID)

	tests := map[string]struct {
		body    string
		phrases []string
	}{
		"flavor": {
			body: `
data "unikorn_flavors" "f" {
  region_id = ` + region + `
  name      = "sim-standrd-4"
}

output "id" {
  value = data.unikorn_flavors.f.flavors[0].id
}
`,
			phrases: []string{"Warning: No flavor is named \"sim-standrd-4\"", `There are: "sim-arm-2", "sim-gpu-8",`,
				`"sim-standard-4"`, "Error: Invalid index"},
		},
		"image": {
			body: `
data "unikorn_images" "i" {
  region_id = ` + region + `
  name      = "ubuntu-24.4"
}
`,
			phrases: []string{"No image is named \"ubuntu-24.4\"", `"ubuntu-24.04-amd64"`},
		},
		"file storage class": {
			body: `
data "unikorn_file_storage_classes" "c" {
  name = "sandbox-dedicatd"
}
`,
			phrases: []string{"No file storage class is named \"sandbox-dedicatd\"", `"sandbox-dedicated"`},
		},
		"network": {
			body: `
data "unikorn_network" "n" {
  name = "defaut"
}
`,
			phrases: []string{"Error: Network not found", `No network is named "defaut"`, `There are: "default", "secondary".`},
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			cli := env.CLI(t, test.body)
			output, _ := cli.Try("plan", "-input=false")
			assert.Regexp(t, acctest.Says(test.phrases...), output)
		})
	}

	require.NotEmpty(t, sandbox.NetworkDefaultID)
}
