package instance_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const address = "unikorn_compute_instance.test"

// attrs are the arguments of the test instance, as HCL expressions.
type attrs map[string]string

// baseAttrs is a small, valid instance on the environment's network.
func baseAttrs(env *acctest.Environment) attrs {
	return attrs{
		"name":       acctest.Quote("web"),
		"network_id": acctest.Quote(env.NetworkID),
		"flavor_id":  acctest.Quote(env.FlavorID),
		"image_id":   acctest.Quote(env.ImageID),
	}
}

// with returns a copy of a with the given arguments added or replaced; an empty
// expression removes the argument.
func (a attrs) with(pairs ...string) attrs {
	result := maps.Clone(a)

	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			delete(result, pairs[i])
		} else {
			result[pairs[i]] = pairs[i+1]
		}
	}

	return result
}

// config writes the provider block and the test instance.
func config(env *acctest.Environment, a attrs) string {
	return env.ProviderConfig() + instanceBlock(a)
}

// instanceBlock writes the test instance alone.
func instanceBlock(a attrs) string {
	var b strings.Builder

	b.WriteString("\nresource \"unikorn_compute_instance\" \"test\" {\n")

	for _, name := range slices.Sorted(maps.Keys(a)) {
		fmt.Fprintf(&b, "  %s = %s\n", name, a[name])
	}

	b.WriteString("}\n")

	return b.String()
}

// instanceAllocations returns the identity allocations charged for instances.
func instanceAllocations(t *testing.T, env *acctest.Environment) []unikorn.Allocation {
	t.Helper()

	return slices.DeleteFunc(env.Allocations(t), func(a unikorn.Allocation) bool {
		return a.Spec.Kind != compute.AllocationKind
	})
}

// checkNothingLeft proves that a destroyed configuration leaves neither a server nor
// quota behind.
func checkNothingLeft(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	t.Helper()

	return func(*terraform.State) error {
		// Region's lists may show a server deleted moments ago for the read lag (the
		// compute back end is done when compute says so, which may be before region's
		// caches agree): what is still there after the lag is left behind.
		settled := time.Now().Add(acctest.ProductionReadLag + time.Second)

		for {
			servers := env.Servers(t, unikorn.ServerQuery{})

			switch {
			case len(servers) == 0:
			case time.Now().Before(settled):
				time.Sleep(100 * time.Millisecond)

				continue
			default:
				return fmt.Errorf("%d servers left behind, the first %s", len(servers), servers[0].Metadata.ID)
			}

			break
		}

		if allocations := instanceAllocations(t, env); len(allocations) > 0 {
			return fmt.Errorf("%d instance allocations left behind, the first for instance %s", len(allocations), allocations[0].Spec.ID)
		}

		return nil
	}
}

// checkSandbox runs a check of the sandbox's own records after a step.
func checkSandbox(check func() error) resource.TestCheckFunc {
	return func(*terraform.State) error { return check() }
}

// testCase is the frame of the instance's acceptance tests: each ends with nothing left.
func testCase(t *testing.T, env *acctest.Environment, steps ...resource.TestStep) resource.TestCase {
	t.Helper()

	test := env.TestCase(t, steps...)
	test.CheckDestroy = checkNothingLeft(t, env)

	return test
}

// deleteServerBehindTerraform deletes an instance's server through the API, as a
// person would, and waits until it is gone.
func deleteServerBehindTerraform(t *testing.T, env *acctest.Environment, serverID string) {
	t.Helper()

	ctx := context.Background()
	require.NoError(t, env.Client.DeleteServer(ctx, serverID))
	require.Eventually(t, func() bool {
		_, err := env.Client.GetServer(ctx, serverID)

		return unikorn.IsNotFound(err)
	}, 10*time.Second, 10*time.Millisecond)
	settle()
}

// createImpostor creates, behind Terraform, a second server that claims to realize the
// instance called name (it carries its tag), and returns its ID once the cloud shows it.
func createImpostor(t *testing.T, env *acctest.Environment, name string) string {
	t.Helper()

	impostor, err := env.Client.CreateServer(context.Background(), unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: "impostor", Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: instanceID(t, name)}}},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{FlavorID: env.FlavorID, ImageID: env.ImageID},
			NetworkID:  env.NetworkID,
		},
	})
	require.NoError(t, err)
	settle()

	return impostor.Metadata.ID
}

// instanceID is the ID an instance called name on the default network has.
func instanceID(t *testing.T, name string) string {
	t.Helper()

	id, err := unikorn.DeriveServerID(sandbox.NetworkDefaultID, name)
	require.NoError(t, err)

	return id
}

// writes counts the requests in stats that could change something.
func writes(stats sandbox.Stats) int {
	count := 0

	for route, n := range stats.Routes {
		if !strings.HasPrefix(route, http.MethodGet+" ") {
			count += n
		}
	}

	return count
}

// settle waits out the sandbox's read lag after a change made behind Terraform's
// back, so that the next command sees it, as a person's next command would.
func settle() {
	time.Sleep(acctest.ProductionReadLag)
}

// instanceRoutes are the requests, as stats keys, by which the provider creates,
// lists, reads, updates and deletes instances on a back end: region's servers, or
// compute's instances.
type instanceRoutes struct {
	create, list, get, update, remove string
}

// routesOf returns the instance routes of env's back end.
func routesOf(env *acctest.Environment) instanceRoutes {
	if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
		instances := sandbox.ComputePrefix + "/api/v2/instances"

		return instanceRoutes{
			create: "POST " + instances, list: "GET " + instances, get: "GET " + instances + "/{instanceID}",
			update: "PUT " + instances + "/{instanceID}", remove: "DELETE " + instances + "/{instanceID}",
		}
	}

	return instanceRoutes{
		create: "POST /api/v2/servers", list: "GET /api/v2/servers", get: "GET /api/v2/servers/{serverID}",
		update: "PUT /api/v2/servers/{serverID}", remove: "DELETE /api/v2/servers/{serverID}",
	}
}

// faultOnce fails the next request of route (a stats key) with status.
func faultOnce(route string, status int) sandbox.FaultRule {
	method, template, _ := strings.Cut(route, " ")

	return sandbox.FaultRule{Method: method, Route: template, Status: status, Count: 1}
}

// requestError matches the error of a request of route (a stats key) answered with
// status, wherever the back end's endpoint is mounted.
func requestError(route string, status int) *regexp.Regexp {
	method, template, _ := strings.Cut(route, " ")
	path := strings.TrimPrefix(template, sandbox.ComputePrefix)

	return regexp.MustCompile(fmt.Sprintf(`%s\s+\S*%s:\s+%d`, method, regexp.QuoteMeta(path), status))
}

// onCompute reports whether env's provider drives compute's instance API.
func onCompute(env *acctest.Environment) bool {
	return env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI
}

// userClient calls the compute service as the provider under test does, with the
// user's token.
func userClient(t *testing.T, env *acctest.Environment) *unikorn.Client {
	t.Helper()

	return env.ClientAs(t, env.Settings.Token)
}

// createBehindTerraform makes an instance called name on the environment's network
// through the back end's own API, as another person would.
func createBehindTerraform(t *testing.T, env *acctest.Environment, name string) {
	t.Helper()

	var err error
	if onCompute(env) {
		_, err = userClient(t, env).CreateInstance(context.Background(), unikorn.InstanceCreate{
			Metadata: unikorn.WriteMetadata{Name: name},
			Spec: unikorn.InstanceCreateSpec{
				InstanceSpec:   unikorn.InstanceSpec{FlavorID: env.FlavorID, ImageID: env.ImageID},
				OrganizationID: env.Settings.OrganizationID, ProjectID: env.Settings.ProjectID, NetworkID: env.NetworkID,
			},
		})
	} else {
		_, err = env.Client.CreateServer(context.Background(), unikorn.ServerCreate{
			Metadata: unikorn.WriteMetadata{Name: name},
			Spec: unikorn.ServerCreateSpec{
				ServerSpec: unikorn.ServerSpec{FlavorID: env.FlavorID, ImageID: env.ImageID},
				NetworkID:  env.NetworkID,
			},
		})
	}

	require.NoError(t, err)
}

// deleteBehindTerraform deletes the instance called name through the back end's own
// API, as another person would, and waits until nothing of it is left.
func deleteBehindTerraform(t *testing.T, env *acctest.Environment, name string) {
	t.Helper()

	id := instanceID(t, name)
	if !onCompute(env) {
		deleteServerBehindTerraform(t, env, id)

		return
	}

	client := userClient(t, env)
	require.NoError(t, client.DeleteInstance(context.Background(), id))
	// Compute's controller acts as requests come, so the wait asks compute too.
	require.Eventually(t, func() bool {
		_, err := client.GetInstance(context.Background(), id)

		return unikorn.IsNotFound(err) && len(env.InstanceServers(t, id)) == 0 && len(instanceAllocations(t, env)) == 0
	}, 30*time.Second, 50*time.Millisecond)
	settle()
}
