package instance_test

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// wrapped lets a space in a pattern match the line breaks Terraform inserts.
func wrapped(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

func TestAccInstanceQuotaRefusal(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		gpu := baseAttrs(env).with(
			"count", "3",
			"name", `"gpu-${count.index}"`,
			"flavor_id", acctest.Quote(sandbox.FlavorGPUID),
			"image_id", acctest.Quote(sandbox.ImageUbuntuGPUID),
		)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				Config:      config(env, gpu),
				ExpectError: wrapped(`total gpus allocation of 3 would exceed quota limit of 2`),
			},
			resource.TestStep{
				// Nothing changes the outcome: the two that stand are in state, the third
				// still does not fit; the records prove nothing was created for it.
				PreConfig: func() {
					assert.Len(t, env.Servers(t, unikorn.ServerQuery{}), 2, "the other two stand")
					assert.Len(t, instanceAllocations(t, env), 2, "the third charged nothing")
				},
				Config:      config(env, gpu),
				ExpectError: wrapped(`total gpus allocation of 3 would exceed quota limit of 2`),
			},
		))
	}, acctest.Production(t))
}

// A create the back end refuses charges nothing: region's saga releases the allocation
// it made first, compute refuses before it keeps one; and the create is not resent.
func TestAccInstanceFailedCreateReleasesTheQuota(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		create := routesOf(env).create

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				PreConfig:   func() { env.AddFault(t, faultOnce(create, 500)) },
				Config:      config(env, baseAttrs(env)),
				ExpectError: requestError(create, 500),
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Empty(t, instanceAllocations(t, env), "the allocation was released")
					assert.Equal(t, 1, env.Stats(t).Routes[create], "a failed create is not repeated")
				},
				// The fault is spent: the same configuration now applies.
				Config: config(env, baseAttrs(env)),
			},
		))
	}, acctest.Production(t))
}

func TestAccInstanceDuplicateNameSuggestsImport(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				// Someone else created "web" on the network, outside this configuration.
				PreConfig: func() { createBehindTerraform(t, env, "web") },
				Config:    config(env, baseAttrs(env)),
				ExpectError: wrapped(fmt.Sprintf(`terraform import unikorn_compute_instance.NAME %s/%s/%s`,
					sandbox.OrganizationID, sandbox.ProjectID, instanceID(t, "web"))),
			},
			resource.TestStep{
				PreConfig: func() {
					// Only the other person's instance holds quota.
					assert.Len(t, instanceAllocations(t, env), map[bool]int{false: 0, true: 1}[onCompute(env)])

					settle() // for the list to show what was made a moment ago
					deleteBehindTerraform(t, env, "web")
				},
				Config: config(env, baseAttrs(env)),
			},
		))
	}, acctest.Production(t))
}

func TestAccInstanceProvisioningErrorFailsAtOnce(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		var started time.Time

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				PreConfig: func() {
					env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "1h"})
					started = time.Now()

					go failFirstServer(t, env)
				},
				Config:      config(env, baseAttrs(env).with("timeouts", `{ create = "10m" }`)),
				ExpectError: wrapped(`the cloud failed to provision instance`),
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Less(t, time.Since(started), time.Minute, "the failure is noticed long before the timeout")
					env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "100ms"})
				},
				// The failed instance was kept, tainted: the next apply replaces it.
				Config: config(env, baseAttrs(env).with("timeouts", `{ create = "10m" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionReplace),
				}},
			},
		))
	}, acctest.Production(t))
}

// failFirstServer marks the first server to appear as failed, as a cloud failure would.
func failFirstServer(t *testing.T, env *acctest.Environment) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if servers := env.InstanceServers(t, instanceID(t, "web")); len(servers) > 0 {
			env.FailServer(t, servers[0].Metadata.ID)

			return
		}
	}
}

func TestAccInstanceCreateTimeoutTaintsWithoutOrphans(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				PreConfig:   func() { env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "1h"}) },
				Config:      config(env, baseAttrs(env).with("timeouts", `{ create = "1s" }`)),
				ExpectError: wrapped(`Gave up waiting for instance`),
			},
			resource.TestStep{
				PreConfig: func() {
					// The sandbox's own records: a list may not show the server yet.
					assert.Len(t, env.InstanceServers(t, instanceID(t, "web")), 1, "the instance is known, not orphaned")
					env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "100ms"})
				},
				Config: config(env, baseAttrs(env).with("timeouts", `{ create = "1m" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionReplace),
				}},
			},
		))
	}, acctest.Production(t))
}

// A server deleted out of band is noticed by a plan that writes nothing. On region the
// instance is that server, so the apply that follows replaces the instance and
// releases the vanished one's quota; compute re-creates the server behind the
// instance, which stays as it was, with nothing to plan.
func TestAccInstanceDriftServerDeletedOutOfBand(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		// The server deleted; its successor may have the same ID, but is made later.
		var deleted unikorn.Server

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{Config: config(env, baseAttrs(env))},
			resource.TestStep{
				PreConfig: func() {
					servers := env.InstanceServers(t, instanceID(t, "web"))
					require.Len(t, servers, 1)

					deleted = servers[0]
					deleteServerBehindTerraform(t, env, deleted.Metadata.ID)
					env.ResetStats(t)
				},
				Config:             config(env, baseAttrs(env)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: !onCompute(env),
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Zero(t, writes(env.Stats(t)), "plans wrote to the cloud")
					assert.Len(t, instanceAllocations(t, env), 1, "the plan kept the quota charged")
				},
				Config: config(env, baseAttrs(env)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, map[bool]plancheck.ResourceActionType{
						false: plancheck.ResourceActionDestroyBeforeCreate, true: plancheck.ResourceActionNoop,
					}[onCompute(env)]),
				}},
				Check: checkSandbox(func() error {
					// Only the instance's quota is held, and one server stands for it anew.
					if allocations := instanceAllocations(t, env); len(allocations) != 1 {
						return fmt.Errorf("want 1 instance allocation, got %d", len(allocations))
					}

					servers := env.InstanceServers(t, instanceID(t, "web"))
					if len(servers) != 1 || !servers[0].Metadata.CreationTime.After(deleted.Metadata.CreationTime) {
						return fmt.Errorf("want one new server behind the instance, got %d", len(servers))
					}

					return nil
				}),
			},
		))
	}, acctest.Production(t))
}

// Region only: on compute the servers are compute's own, and a second one behind an
// instance is compute's failure to resolve, not the provider's to report.
func TestAccInstanceSecondServerWithTheTagIsAnError(t *testing.T) {
	env := acctest.New(t, acctest.WithBackend(acctest.RegionBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	var impostorID string

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: config(env, baseAttrs(env))},
		resource.TestStep{
			PreConfig: func() {
				impostorID = createImpostor(t, env, "web")
			},
			Config:      config(env, baseAttrs(env)),
			ExpectError: regexp.MustCompile(`(?s)realized by 2 servers.*` + instanceID(t, "web")),
		},
		resource.TestStep{
			PreConfig: func() {
				assert.NotEmpty(t, impostorID)
				deleteServerBehindTerraform(t, env, impostorID)
			},
			Config: config(env, baseAttrs(env)),
		},
	))
}

func TestAccInstanceDeleteReleasesQuotaAfterTheServerIsGone(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		var (
			watch   sync.WaitGroup
			stop    = make(chan struct{})
			orphans []string
		)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{Config: config(env, baseAttrs(env))},
			resource.TestStep{
				PreConfig: func() {
					env.UpdateSettings(t, sandbox.Settings{DeprovisionDelay: "500ms"})

					// Watch the sandbox's records while Terraform destroys: a server must
					// never be without its allocation. They are read as they are, not
					// through the read lag, whose lists may show a server for a while
					// after it is gone; and the allocation first, so that a release made
					// between the two reads, after the server went, is not taken for one
					// made before.
					watch.Go(func() {
						for {
							select {
							case <-stop:
								return
							case <-time.After(5 * time.Millisecond):
							}

							released := len(instanceAllocations(t, env)) == 0
							if servers := env.InstanceServers(t, instanceID(t, "web")); released && len(servers) > 0 {
								orphans = append(orphans, servers[0].Metadata.ProvisioningStatus)
							}
						}
					})
				},
				Config: env.ProviderConfig(),
				Check: func(state *terraform.State) error {
					close(stop)
					watch.Wait()

					if len(orphans) > 0 {
						return fmt.Errorf("the allocation was released while the server existed (%v)", orphans)
					}

					return checkNothingLeft(t, env)(state)
				},
			},
		))
	}, acctest.Production(t))
}

func TestAccInstanceSurvivesRetryableFaults(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		routes := routesOf(env)

		// Each step gets one 503 and one 429 on every idempotent request it makes, on
		// top of a clean slate, so that no route fails more often than the client
		// retries. Compute releases the allocation itself, and retries on its own.
		faults := func() {
			env.ClearFaults(t)

			for _, route := range []string{
				routes.list, routes.get, routes.update, routes.remove,
				"GET /api/v2/networks/{networkID}",
				"DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}",
			} {
				for _, status := range []int{503, 429} {
					env.AddFault(t, faultOnce(route, status))
				}
			}
		}

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{PreConfig: faults, Config: config(env, baseAttrs(env))},
			resource.TestStep{PreConfig: faults, Config: config(env, baseAttrs(env).with("description", `"updated"`))},
			resource.TestStep{
				PreConfig: func() {
					faults()
					env.ResetStats(t)
					// The old instance is destroyed first; the new one's create fails once.
					env.AddFault(t, faultOnce(routes.create, 503))
				},
				Config:      config(env, baseAttrs(env).with("name", `"web-2"`)),
				ExpectError: requestError(routes.create, 503),
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Equal(t, 1, env.Stats(t).Routes[routes.create], "a failed create is sent once")
					faults()
				},
				Config: config(env, baseAttrs(env).with("name", `"web-2"`)),
			},
		))
	}, acctest.Production(t))
}
