package instance_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Switching instance_api under an existing state cannot keep managing the instances:
// compute does not know an instance made on region's servers, and region's server API
// would fight compute's controller over one compute made. The plan says so, names
// both settings and changes nothing; switching back plans nothing to do.
func TestAccInstanceSwitchingInstanceAPISaysWhyNot(t *testing.T) {
	for _, switched := range [][2]acctest.Backend{
		{acctest.RegionBackend, acctest.ComputeBackend},
		{acctest.ComputeBackend, acctest.RegionBackend},
	} {
		made, other := switched[0], switched[1]

		t.Run(made.InstanceAPI+"_to_"+other.InstanceAPI, func(t *testing.T) {
			env := acctest.New(t, acctest.WithBackend(made))
			env.SkipUnlessSandbox(t)

			instance := instanceBlock(baseAttrs(env))
			var before []unikorn.Server

			resource.ParallelTest(t, testCase(t, env,
				resource.TestStep{
					Config: config(env, baseAttrs(env)),
					Check: checkSandbox(func() error {
						before = env.Servers(t, unikorn.ServerQuery{})

						return nil
					}),
				},
				resource.TestStep{
					PreConfig: func() { env.ResetStats(t) },
					Config:    env.SettingsFor(t, other).Config() + instance,
					PlanOnly:  true,
					ExpectError: regexp.MustCompile(fmt.Sprintf(`Instance made through another instance API(.|\n)*`+
						`instance_api\s+=\s+"%s",\s+but\s+the\s+provider\s+is\s+configured\s+with\s+instance_api\s+=\s+"%s"(.|\n)*`+
						`Keep\s+instance_api\s+=\s+"%[1]s"`, made.InstanceAPI, other.InstanceAPI)),
				},
				resource.TestStep{
					PreConfig: func() {
						after := env.Servers(t, unikorn.ServerQuery{})
						if len(after) != 1 || len(before) != 1 || after[0].Metadata.ID != before[0].Metadata.ID {
							t.Errorf("the refused plan changed the servers: %d before, %d after", len(before), len(after))
						}

						if stats := env.Stats(t); writes(stats) != 0 {
							t.Errorf("the refused plan wrote %d times", writes(stats))
						}
					},
					Config: config(env, baseAttrs(env)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				},
			))
		})
	}
}
