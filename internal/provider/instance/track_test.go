package instance_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// The cloud keeps user data, so an instance imported again (after `state rm`) plans
// no replacement.
func TestAccInstanceImportReadsUserDataBack(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	withUserData := baseAttrs(env).with("user_data", `"#!/bin/sh\necho hello\n"`)

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: config(env, withUserData)},
		resource.TestStep{
			Config:            config(env, withUserData),
			ResourceName:      address,
			ImportState:       true,
			ImportStateVerify: true,
		},
		resource.TestStep{
			Config:          config(env, withUserData),
			ResourceName:    address,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		},
	))
}

// Timeouts live only in Terraform: changing them sends nothing to the cloud.
func TestAccInstanceTimeoutsOnlyChangeWritesNothing(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: config(env, baseAttrs(env))},
		resource.TestStep{
			PreConfig: func() { env.ResetStats(t) },
			Config:    config(env, baseAttrs(env).with("timeouts", `{ update = "10m", delete = "5m" }`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
			}},
			Check: checkSandbox(func() error {
				if n := writes(env.Stats(t)); n != 0 {
					return fmt.Errorf("a timeouts-only change sent %d writes: %v", n, env.Stats(t).Routes)
				}

				return nil
			}),
		},
	))
}
