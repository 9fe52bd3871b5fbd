package console_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// consoleOf matches the console output the API gives for instance web, read when
// checked; lines <= 0 means all of it.
func consoleOf(t *testing.T, env *acctest.Environment, lines int) knownvalue.Check {
	return knownvalue.StringFunc(func(value string) error {
		id, err := unikorn.DeriveServerID(env.NetworkID, "web")
		require.NoError(t, err)

		servers := env.Servers(t, unikorn.ServerQuery{Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: id}}})
		require.Len(t, servers, 1)

		want, err := env.Client.GetServerConsoleOutput(t.Context(), servers[0].Metadata.ID, lines)
		require.NoError(t, err)

		if value != want.Contents {
			return fmt.Errorf("got %q, want %q", value, want.Contents)
		}

		if lines > 0 && strings.Count(value, "\n") >= lines {
			return fmt.Errorf("got %d lines, want at most %d", strings.Count(value, "\n")+1, lines)
		}

		return nil
	})
}

// TestAccConsoleOutput reads the whole console of an instance and its last lines.
func TestAccConsoleOutput(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {

		instance := env.ProviderConfig() + env.WebInstance()

		resource.ParallelTest(t, env.TestCase(t,
			resource.TestStep{
				Config: instance + `
data "unikorn_compute_instance_console_output" "none" {
  instance_id = "f0000000-0000-4000-8000-000000000001"
  lines       = 0
}
`,
				ExpectError: regexp.MustCompile(`Attribute lines value must be at least 1`),
			},
			// The console exists once the instance does, so it is read in a later plan.
			resource.TestStep{Config: instance},
			resource.TestStep{
				Config: instance + `
data "unikorn_compute_instance_console_output" "all" {
  instance_id = unikorn_compute_instance.web.id
}

data "unikorn_compute_instance_console_output" "tail" {
  instance_id = unikorn_compute_instance.web.id
  lines       = 3
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.unikorn_compute_instance_console_output.all", tfjsonpath.New("contents"), consoleOf(t, env, 0)),
					statecheck.ExpectKnownValue("data.unikorn_compute_instance_console_output.tail", tfjsonpath.New("contents"), consoleOf(t, env, 3)),
					statecheck.ExpectKnownValue("data.unikorn_compute_instance_console_output.all", tfjsonpath.New("contents"),
						knownvalue.StringRegexp(regexp.MustCompile(`(?s)\n.*\n.*\n.*\n`))),
				},
			},
			resource.TestStep{
				Config: instance + `
data "unikorn_compute_instance_console_output" "missing" {
  instance_id = "f0000000-0000-4000-8000-000000000001"
}
`,
				ExpectError: regexp.MustCompile(`Unable to read the instance's console output(.|\n)*The instance does not exist`),
			},
			resource.TestStep{Config: instance},
		))
	})
}
