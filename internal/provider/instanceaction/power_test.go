package instanceaction_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// TestAccPower_stop stops an instance when a terraform_data is created, shows the
// result at the next refresh without a diff, and stops it again on an update without
// asking the cloud a second time.
func TestAccPower_stop(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		base := env.ProviderConfig() + env.WebInstance() + powerAction("stop", "stop")
		powerState := statecheck.ExpectKnownValue("unikorn_compute_instance.web", tfjsonpath.New("power_state"), knownvalue.StringExact("Stopped"))

		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(acctest.Actions),
			Steps: []resource.TestStep{
				{
					Config: base + trigger("stop", "first", "action.unikorn_compute_instance_power.stop"),
					Check: resource.ComposeAggregateTestCheckFunc(
						checkPowerState(t, env, "Stopped"),
						checkCalledOnce(t, env, routeStop),
					),
				},
				{
					// A refresh shows the stopped instance; power_state is not planned, so
					// nothing is to be done about it.
					Config: base + trigger("stop", "first", "action.unikorn_compute_instance_power.stop"),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					ConfigStateChecks: []statecheck.StateCheck{powerState},
				},
				{
					Config: base + trigger("stop", "second", "action.unikorn_compute_instance_power.stop"),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("terraform_data.stop", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("unikorn_compute_instance.web", plancheck.ResourceActionNoop),
						},
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						checkPowerState(t, env, "Stopped"),
						checkCalledOnce(t, env, routeStop),
					),
					ConfigStateChecks: []statecheck.StateCheck{powerState},
				},
			},
		})
	})
}

// TestAccPower_transitions refuses to reboot a stopped instance, starts it, and
// resets it with a hard reboot.
func TestAccPower_transitions(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		base := env.ProviderConfig() + env.WebInstance() +
			powerAction("stop", "stop") + powerAction("reboot", "reboot") +
			powerAction("start", "start") + powerAction("hard_reboot", "hard_reboot") +
			trigger("stop", "once", "action.unikorn_compute_instance_power.stop")

		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(acctest.Actions),
			Steps: []resource.TestStep{
				{
					Config: base,
					Check:  checkPowerState(t, env, "Stopped"),
				},
				{
					Config:      base + trigger("reboot", "once", "action.unikorn_compute_instance_power.reboot"),
					ExpectError: regexp.MustCompile(`Unable to reboot the instance(.|\n)*is stopped: only a running instance\s+can\s+be\s+rebooted\s+\(start\s+a\s+stopped\s+one\s+instead\)`),
				},
				{
					Config: base + trigger("start", "once", "action.unikorn_compute_instance_power.start"),
					Check: resource.ComposeAggregateTestCheckFunc(
						checkPowerState(t, env, "Running"),
						checkCalledOnce(t, env, routeStart),
					),
				},
				{
					Config: base + trigger("start", "once", "action.unikorn_compute_instance_power.start") +
						trigger("hard_reboot", "once", "action.unikorn_compute_instance_power.hard_reboot"),
					Check: resource.ComposeAggregateTestCheckFunc(
						checkPowerState(t, env, "Running"),
						checkCalledOnce(t, env, routeHardReboot),
					),
				},
			},
		})
	})
}

// TestAccPower_invalidConfiguration rejects an unknown operation and a malformed
// timeout before anything is called.
func TestAccPower_invalidConfiguration(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(acctest.Actions),
			Steps: []resource.TestStep{
				{
					Config: env.ProviderConfig() + `
action "unikorn_compute_instance_power" "this" {
  config {
    instance_id = "f0000000-0000-4000-8000-000000000001"
    operation   = "suspend"
  }
}
`,
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`value must be one of: \["start"\s+"stop"\s+"reboot"\s+"hard_reboot"\]`),
				},
				{
					Config: env.ProviderConfig() + `
action "unikorn_compute_instance_power" "this" {
  config {
    instance_id = "f0000000-0000-4000-8000-000000000001"
    operation   = "stop"
    timeout     = "soon"
  }
}
`,
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`"soon" is not a positive duration`),
				},
			},
		})

		assert.Zero(t, env.Stats(t).Total)
	})
}
