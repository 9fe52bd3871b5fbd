package instance_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The cloud keeps user data, so an instance imported again (after `state rm`) plans
// no replacement.
func TestAccInstanceImportReadsUserDataBack(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		withUserData := baseAttrs(env).with("user_data", `"#!/bin/sh\necho hello\n"`)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{Config: config(env, withUserData)},
			resource.TestStep{
				// Imported later, once reads show the instance as it now is.
				PreConfig:         settle,
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
	}, acctest.Production(t))
}

// Timeouts live only in Terraform: changing them sends nothing to the cloud.
func TestAccInstanceTimeoutsOnlyChangeWritesNothing(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
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
	}, acctest.Production(t))
}

// staleLists stands between Terraform and the cloud as a cache that has not caught
// up does: while empty is set, every list of region's servers or compute's instances
// comes back empty, though they are there.
type staleLists struct {
	empty atomic.Bool
}

// staleRoutes are the lists staleLists empties: those the two instance back ends read.
var staleRoutes = map[string]bool{"/api/v2/servers": true, sandbox.ComputePrefix + "/api/v2/instances": true}

func (s *staleLists) proxy(t *testing.T, target string) string {
	t.Helper()

	upstream, err := url.Parse(target)
	require.NoError(t, err)

	proxy := httputil.NewSingleHostReverseProxy(upstream)
	proxy.ModifyResponse = func(response *http.Response) error {
		request := response.Request
		if s.empty.Load() && request.Method == http.MethodGet && staleRoutes[request.URL.Path] && response.StatusCode == http.StatusOK {
			_ = response.Body.Close()
			response.Body = io.NopCloser(strings.NewReader("[]"))
			response.ContentLength = 2
			response.Header.Set("Content-Length", "2")
		}

		return nil
	}

	server := httptest.NewServer(proxy)
	t.Cleanup(server.Close)

	return server.URL
}

// applyBehindStaleLists creates the test instance through the CLI, with region and
// compute behind staleLists.
func applyBehindStaleLists(t *testing.T, env *acctest.Environment) (*staleLists, *acctest.CLI) {
	t.Helper()

	lists := &staleLists{}
	proxied := lists.proxy(t, env.Settings.Endpoints[services.Region])
	env.Settings.Endpoints[services.Region] = proxied

	if env.Settings.Endpoints[services.Compute] != "" {
		env.Settings.Endpoints[services.Compute] = proxied + sandbox.ComputePrefix
	}

	cli := env.CLI(t, instanceBlock(baseAttrs(env)))
	cli.Run("apply", "-auto-approve", "-input=false")

	return lists, cli
}

// Lists that miss a running server neither make a plan delete it nor a destroy
// release its quota while it runs: the provider asks for the server itself.
func TestAccInstanceStaleListsNeverLoseTrack(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		lists, cli := applyBehindStaleLists(t, env)

		lists.empty.Store(true)
		env.ResetStats(t)

		output, err := cli.Try("plan", "-detailed-exitcode", "-input=false")
		require.NoError(t, err, "a plan over stale lists must find no changes:\n%s", output)
		assert.Zero(t, writes(env.Stats(t)), "a plan wrote to the cloud")
		assert.Len(t, env.Servers(t, unikorn.ServerQuery{}), 1)

		// A destroy that does not refresh, still over stale lists: the instance is
		// found, deleted and waited for, and only then is the quota released.
		cli.Run("destroy", "-auto-approve", "-input=false", "-refresh=false")
		assert.Empty(t, env.Servers(t, unikorn.ServerQuery{}), "no server left running")
		assert.Empty(t, instanceAllocations(t, env), "no allocation left charged")

		// The provider asked once, of region or of compute, whichever it uses.
		routes := env.Stats(t).Routes
		assert.Equal(t, 1, routes["DELETE /api/v2/servers/{serverID}"]+routes["DELETE "+sandbox.ComputePrefix+"/api/v2/instances/{instanceID}"])
	}, acctest.Production(t))
}

// A valid token of someone who may not see the instance (lists leave it out) has
// lost access: refreshing with it is an error, and the instance stays in state.
func TestAccInstanceAnotherUsersTokenDoesNotDropTheInstance(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		lists, cli := applyBehindStaleLists(t, env)

		lists.empty.Store(true)

		outsider := env.Settings
		outsider.Token = sandbox.OutsiderToken
		cli.WriteConfig(outsider.Config() + instanceBlock(baseAttrs(env)))
		env.ResetStats(t)

		output, err := cli.Try("apply", "-refresh-only", "-auto-approve", "-input=false")
		require.Error(t, err, "refreshing without access must fail:\n%s", output)
		// Region refuses its server API to any user's token before it looks at scope, so
		// the refusal is explained as a missing service right rather than lost access;
		// either way the instance is an error, not gone.
		assert.Regexp(t, `(?s)Unable to read the instance.*(cannot be read with these\s+credentials.*not known to be\s+gone|refused\s+the\s+token)`, output)
		assert.NotContains(t, output, "has been deleted")
		assert.Zero(t, writes(env.Stats(t)))

		// With the right token again, the instance is there and unchanged.
		lists.empty.Store(false)
		cli.WriteConfig(env.ProviderConfig() + instanceBlock(baseAttrs(env)))
		assert.Contains(t, cli.Run("state", "list"), address)

		output, err = cli.Try("plan", "-detailed-exitcode", "-input=false")
		require.NoError(t, err, "the instance was kept:\n%s", output)
	}, acctest.Production(t))
}

// An instance the cloud reports in error is named in the plan, not passed over as
// "No changes".
func TestAccInstanceInErrorIsNamedInThePlan(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		cli := env.CLI(t, instanceBlock(baseAttrs(env)))
		cli.Run("apply", "-auto-approve", "-input=false")

		servers := env.InstanceServers(t, instanceID(t, "web"))
		require.Len(t, servers, 1)
		env.FailServer(t, servers[0].Metadata.ID)
		settle()

		if onCompute(env) {
			// Compute's controller sees the failure through region's cache as requests
			// come, and its own reads trail what it then records: ask until they show it.
			client := userClient(t, env)
			require.Eventually(t, func() bool {
				instance, err := client.GetInstance(context.Background(), instanceID(t, "web"))

				return err == nil && instance.Metadata.ProvisioningStatus == unikorn.ProvisioningError
			}, 30*time.Second, 50*time.Millisecond)
		}

		output := strings.Join(strings.Fields(cli.Run("plan", "-input=false")), " ")
		assert.Contains(t, output, "Instance failed in the cloud")
		assert.Contains(t, output, "-replace=")
	}, acctest.Production(t))
}
