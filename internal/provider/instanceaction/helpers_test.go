package instanceaction_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Sandbox routes of the power calls, as its statistics name them.
const (
	routeStart      = "POST /api/v2/servers/{serverID}/start"
	routeStop       = "POST /api/v2/servers/{serverID}/stop"
	routeHardReboot = "POST /api/v2/servers/{serverID}/hardreboot"
	routeSnapshot   = "POST /api/v2/servers/{serverID}/snapshot"
)

// powerAction is a power action on instance web.
func powerAction(name, operation string) string {
	return `
action "unikorn_compute_instance_power" "` + name + `" {
  config {
    instance_id = unikorn_compute_instance.web.id
    operation   = "` + operation + `"
  }
}
`
}

// trigger is a terraform_data whose creation and updates (a change of input) invoke
// the action at address.
func trigger(name, input, action string) string {
	return `
resource "terraform_data" "` + name + `" {
  input = ["` + input + `", unikorn_compute_instance.web.id]

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [` + action + `]
    }
  }
}
`
}

// serverOf returns the server behind instance name, read from the API.
func serverOf(t *testing.T, env *acctest.Environment, name string) unikorn.Server {
	t.Helper()

	id, err := unikorn.DeriveServerID(env.NetworkID, name)
	require.NoError(t, err)

	servers := env.Servers(t, unikorn.ServerQuery{Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: id}}})
	require.Len(t, servers, 1)

	return servers[0]
}

// checkPowerState checks the power state of instance web's server in the cloud.
func checkPowerState(t *testing.T, env *acctest.Environment, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := serverOf(t, env, "web").Status.PowerState; got != want {
			return fmt.Errorf("the server is %s, want %s", got, want)
		}

		return nil
	}
}

// checkCalledOnce checks that region has served route exactly once, called by the
// provider (the region back end) or by compute on its behalf (the compute back end):
// an action that has nothing to do must not call the cloud again.
func checkCalledOnce(t *testing.T, env *acctest.Environment, route string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		stats := env.Stats(t)
		if got := stats.Routes[route] + stats.Internal[route]; got != 1 {
			return fmt.Errorf("%s was called %d times, want once", route, got)
		}

		return nil
	}
}
