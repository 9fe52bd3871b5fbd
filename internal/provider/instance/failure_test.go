package instance_test

import (
	"context"
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
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
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

func TestAccInstanceFailedServerCreateReleasesTheQuota(t *testing.T) {
	// Region back end only: it is the provider's own saga that charges the quota and must
	// undo it; compute undoes its own.
	env := acctest.New(t, acctest.WithBackend(acctest.RegionBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			PreConfig: func() {
				env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: "/api/v2/servers", Status: 500, Count: 1})
			},
			Config:      config(env, baseAttrs(env)),
			ExpectError: wrapped(`creating the server: POST /api/v2/servers: 500`),
		},
		resource.TestStep{
			PreConfig: func() {
				assert.Empty(t, instanceAllocations(t, env), "the allocation was released")
				assert.Equal(t, 1, env.Stats(t).Routes["POST /api/v2/servers"], "a failed create is not repeated")
			},
			// The fault is spent: the same configuration now applies.
			Config: config(env, baseAttrs(env)),
		},
	))
}

func TestAccInstanceDuplicateNameSuggestsImport(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		outside := outsideTerraform(t, env)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				// Someone else created "web" on the network, outside this configuration.
				PreConfig: func() { outside.create("web") },
				Config:    config(env, baseAttrs(env)),
				ExpectError: wrapped(fmt.Sprintf(`terraform import unikorn_compute_instance.NAME %s/%s/%s`,
					sandbox.OrganizationID, sandbox.ProjectID, instanceID(t, "web"))),
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Len(t, instanceAllocations(t, env), outside.allocations,
						"the refused create charged nothing")
					outside.delete("web")
				},
				Config: config(env, baseAttrs(env)),
			},
		))
	}, acctest.Production(t))
}

// outside makes and removes instances behind Terraform's back, the way someone using
// the same back end would: a bare server on region, or an instance through compute.
type outside struct {
	t   *testing.T
	env *acctest.Environment
	// compute is compute's API as the provider's user has it; nil on region.
	compute *unikorn.Client
	// allocations is how many quota allocations an instance made outside holds: the
	// saga's own when compute makes it, none for a bare server.
	allocations int
}

func outsideTerraform(t *testing.T, env *acctest.Environment) *outside {
	t.Helper()

	o := &outside{t: t, env: env}

	if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
		client, err := unikorn.NewClient(unikorn.Config{
			RegionEndpoint:  env.Settings.RegionEndpoint,
			ComputeEndpoint: env.Settings.ComputeEndpoint,
			Token:           env.Settings.Token,
		})
		require.NoError(t, err)

		o.compute, o.allocations = client, 1
	}

	return o
}

func (o *outside) create(name string) {
	o.t.Helper()

	ctx := context.Background()
	spec := unikorn.ServerSpec{FlavorID: o.env.FlavorID, ImageID: o.env.ImageID}

	if o.compute == nil {
		_, err := o.env.Client.CreateServer(ctx, unikorn.ServerCreate{
			Metadata: unikorn.WriteMetadata{Name: name},
			Spec:     unikorn.ServerCreateSpec{ServerSpec: spec, NetworkID: o.env.NetworkID},
		})
		require.NoError(o.t, err)

		return
	}

	_, err := o.compute.CreateInstance(ctx, unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: spec.FlavorID, ImageID: spec.ImageID},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			NetworkID:      o.env.NetworkID,
		},
	})
	require.NoError(o.t, err)
}

// delete removes what create made and waits until it is gone, past the read lag.
func (o *outside) delete(name string) {
	o.t.Helper()

	id := instanceID(o.t, name)
	if o.compute == nil {
		settle() // for the list to show the server made a moment ago
		deleteServerBehindTerraform(o.t, o.env, id)

		return
	}

	ctx := context.Background()
	require.NoError(o.t, o.compute.DeleteInstance(ctx, id))
	require.Eventually(o.t, func() bool {
		_, err := o.compute.GetInstance(ctx, id)

		return unikorn.IsNotFound(err)
	}, time.Minute, 100*time.Millisecond)
	settle()
}

func TestAccInstanceProvisioningErrorFailsAtOnce(t *testing.T) {
	// Region back end only: compute does not show a server's error on the instance, which
	// stays provisioning (see ../shared/docs/compute-service).
	env := acctest.New(t, acctest.WithBackend(acctest.RegionBackend), acctest.Production(t))
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
}

// failFirstServer marks the first server to appear as failed, as a cloud failure would.
func failFirstServer(t *testing.T, env *acctest.Environment) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if servers := env.Servers(t, unikorn.ServerQuery{}); len(servers) > 0 {
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
					assert.Len(t, env.Servers(t, unikorn.ServerQuery{}), 1, "the instance is known, not orphaned")
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

// A server deleted out of band is noticed by a plan that writes nothing; the apply
// that follows replaces the instance and releases the vanished one's quota.
func TestAccInstanceDriftServerDeletedOutOfBand(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		// Compute's controller puts back a server deleted behind its back, so the
		// instance stays; the region back end has nobody to do that, and replaces it.
		compute := env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI
		replaced := plancheck.ExpectResourceAction(address, plancheck.ResourceActionDestroyBeforeCreate)
		if compute {
			replaced = plancheck.ExpectEmptyPlan()
		}

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{Config: config(env, baseAttrs(env))},
			resource.TestStep{
				PreConfig: func() {
					deleteServerBehindTerraform(t, env, instanceID(t, "web"))
					env.ResetStats(t)
				},
				Config:             config(env, baseAttrs(env)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: !compute,
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Zero(t, writes(env.Stats(t)), "plans wrote to the cloud")
					assert.Len(t, instanceAllocations(t, env), 1, "the plan kept the quota charged")
				},
				Config:           config(env, baseAttrs(env)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{replaced}},
				Check: checkSandbox(func() error {
					// The vanished instance's quota was released, or kept by the instance
					// compute restored; either way one instance is charged once.
					if allocations := instanceAllocations(t, env); len(allocations) != 1 {
						return fmt.Errorf("want 1 instance allocation, got %d", len(allocations))
					}

					if compute {
						// The server compute put back is younger than region's read lag.
						settle()
					}

					if servers := env.Servers(t, unikorn.ServerQuery{}); len(servers) != 1 {
						return fmt.Errorf("want 1 server behind the instance, got %d", len(servers))
					}

					return nil
				}),
			},
		))
	}, acctest.Production(t))
}

func TestAccInstanceSecondServerWithTheTagIsAnError(t *testing.T) {
	// Region back end only: servers carrying the tag are what the region back end reads;
	// compute keeps its own record of each instance.
	env := acctest.New(t, acctest.WithBackend(acctest.RegionBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	var impostorID string

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: config(env, baseAttrs(env))},
		resource.TestStep{
			PreConfig: func() {
				impostor, err := env.Client.CreateServer(context.Background(), unikorn.ServerCreate{
					Metadata: unikorn.WriteMetadata{Name: "impostor", Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: instanceID(t, "web")}}},
					Spec: unikorn.ServerCreateSpec{
						ServerSpec: unikorn.ServerSpec{FlavorID: env.FlavorID, ImageID: env.ImageID},
						NetworkID:  env.NetworkID,
					},
				})
				require.NoError(t, err)

				impostorID = impostor.Metadata.ID
				settle()
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

					// Watch the records while Terraform destroys: a server must never be
					// without its allocation.
					watch.Go(func() {
						for {
							select {
							case <-stop:
								return
							case <-time.After(5 * time.Millisecond):
							}

							servers := env.Servers(t, unikorn.ServerQuery{})
							if len(servers) > 0 && len(instanceAllocations(t, env)) == 0 {
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

		// Each step gets one 503 and one 429 on every idempotent request either back
		// end makes, on top of a clean slate, so that no route fails more often than
		// the client retries. Compute's own calls to region meet them too.
		faults := func() {
			env.ClearFaults(t)

			for _, route := range []struct{ method, route string }{
				{"GET", "/api/v2/servers"},
				{"GET", "/api/v2/servers/{serverID}"},
				{"GET", "/api/v2/networks/{networkID}"},
				{"PUT", "/api/v2/servers/{serverID}"},
				{"DELETE", "/api/v2/servers/{serverID}"},
				{"DELETE", "/api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}"},
				{"GET", sandbox.ComputePrefix + "/api/v2/instances"},
				{"GET", sandbox.ComputePrefix + "/api/v2/instances/{instanceID}"},
				{"PUT", sandbox.ComputePrefix + "/api/v2/instances/{instanceID}"},
				{"DELETE", sandbox.ComputePrefix + "/api/v2/instances/{instanceID}"},
			} {
				for _, status := range []int{503, 429} {
					env.AddFault(t, sandbox.FaultRule{Method: route.method, Route: route.route, Status: status, Count: 1})
				}
			}
		}

		// The request that creates an instance, as the sandbox names it and as the
		// client's error names it.
		create, createPath := "/api/v2/servers", "/api/v2/servers"
		if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
			create, createPath = sandbox.ComputePrefix+"/api/v2/instances", "/api/v2/instances"
		}

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{PreConfig: faults, Config: config(env, baseAttrs(env))},
			resource.TestStep{PreConfig: faults, Config: config(env, baseAttrs(env).with("description", `"updated"`))},
			resource.TestStep{
				PreConfig: func() {
					faults()
					env.ResetStats(t)
					// The old instance is destroyed first; the new one's create fails once.
					env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: create, Status: 503, Count: 1})
				},
				Config:      config(env, baseAttrs(env).with("name", `"web-2"`)),
				ExpectError: wrapped(`POST ` + createPath + `: 503`),
			},
			resource.TestStep{
				PreConfig: func() {
					assert.Equal(t, 1, env.Stats(t).Routes["POST "+create], "a failed create is sent once")
					faults()
				},
				Config: config(env, baseAttrs(env).with("name", `"web-2"`)),
			},
		))
	}, acctest.Production(t))
}
