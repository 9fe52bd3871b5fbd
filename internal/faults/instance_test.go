package faults_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// instances is the life of an instance on one instance back end, failing the
// requests that back end makes.
type instances struct {
	on acctest.Backend
}

var _ subject = instances{}

func (i instances) name() string { return i.on.InstanceAPI }

func (i instances) describe() string { return fmt.Sprintf("instance_api = %q", i.on.InstanceAPI) }

func (instances) promise() string {
	return "zero leaked allocations, zero orphan servers, no instance replaced"
}

func (i instances) backend() acctest.Backend { return i.on }

func (instances) config(env *acctest.Environment, p phase) string { return instanceConfig(env, p) }

func (instances) replacingRoutes() []string { return deleteRoutes }

// settleLostCharges handles the one loss the provider cannot repair: identity charged
// an allocation whose answer was lost, and, having no list, cannot show it again. The
// failed run must have said so, naming the instance; then the allocation is released
// as an operator would, and the number released is returned.
func (instances) settleLostCharges(l *life) int {
	l.t.Helper()

	lost := l.gateway.takeLostAllocations()
	if len(lost) == 0 {
		return 0
	}

	id, err := unikorn.DeriveServerID(l.env.NetworkID, "web")
	require.NoError(l.t, err)
	require.Contains(l.t, strings.Join(strings.Fields(strings.Join(l.failures, "\n")), " "),
		"quota may have been charged for instance "+id, "a lost charge is reported")

	for _, allocationID := range lost {
		require.NoError(l.t, l.env.Client.DeleteAllocation(context.Background(),
			l.env.Settings.OrganizationID, l.env.Settings.ProjectID, allocationID))
	}

	return len(lost)
}

// instanceConfig is the instance as the phase wants it. The update changes
// everything that changes in place, so that it moves quota and reads a security group.
func instanceConfig(env *acctest.Environment, p phase) string {
	description, team, publicIP, groups := "first", "a", "false", "[]"
	if p != phaseCreate {
		description, team, publicIP, groups = "second", "b", "true", acctest.Quote(sandbox.SecurityGroupAllowSSHID)
		groups = "[" + groups + "]"
	}

	return fmt.Sprintf(`
resource "unikorn_compute_instance" "test" {
  name               = "web"
  network_id         = %s
  flavor_id          = %s
  image_id           = %s
  description        = %q
  tags               = { team = %q }
  public_ip          = %s
  security_group_ids = %s
}
`, acctest.Quote(env.NetworkID), acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID), description, team, publicIP, groups)
}

// requireAgreement proves that, after the phase, state and cloud agree and nothing
// leaked: one server and one allocation for the instance in state, or none at all
// after a delete.
func (instances) requireAgreement(l *life, p phase) {
	l.t.Helper()

	allocations := instanceAllocations(l)

	id, err := unikorn.DeriveServerID(l.env.NetworkID, "web")
	require.NoError(l.t, err)

	if p == phaseDelete {
		// Lists may go on showing a deleted server for the read lag; the sandbox's own
		// records say whether it is gone.
		require.Empty(l.t, l.env.InstanceServers(l.t, id), "no orphan server")
		require.Empty(l.t, allocations, "no leaked allocation")
		require.NotContains(l.t, l.cli.Run("state", "list"), "unikorn_compute_instance.", "nothing left in state")

		return
	}

	// A plan finds nothing to change: what state holds is what the cloud has, and
	// what the configuration asks for.
	output, err := l.cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(l.t, err, "state and cloud disagree after %s:\n%s", p, output)

	servers := l.env.Servers(l.t, unikorn.ServerQuery{})
	require.Len(l.t, servers, 1, "exactly the instance's server")

	tag, _ := servers[0].Metadata.Tags.Get(compute.InstanceIDTag)
	require.Equal(l.t, id, tag)

	require.Len(l.t, allocations, 1, "exactly the instance's allocation; the failed runs said:\n%s", strings.Join(l.failures, "\n---\n"))
	require.Equal(l.t, id, allocations[0].Spec.ID)

	// Compute keeps the allocation's ID in its own record of the instance; region's
	// saga has only the server to keep it on.
	if l.backend == acctest.RegionBackend {
		allocationTag, _ := servers[0].Metadata.Tags.Get(compute.AllocationIDTag)
		require.Equal(l.t, allocations[0].Metadata.ID, allocationTag, "the server names its allocation")
	}
}

// deleteRoutes are the requests that delete an instance or the server behind it,
// whoever sends them: the provider, or compute on its own account.
var deleteRoutes = []string{
	"DELETE /api/v2/servers/{serverID}",
	"DELETE " + sandbox.ComputePrefix + "/api/v2/instances/{instanceID}",
}

func instanceAllocations(l *life) []unikorn.Allocation {
	return slices.DeleteFunc(l.env.Allocations(l.t), func(a unikorn.Allocation) bool {
		return a.Spec.Kind != compute.AllocationKind
	})
}
