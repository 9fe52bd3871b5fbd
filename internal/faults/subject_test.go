package faults_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// subject is what a life creates, updates and deletes: an instance on one back end,
// a load balancer, file storage, or an identity stack. Each fails the requests its own
// clean lives make.
type subject struct {
	// name keys the subtests and the report's sections.
	name string
	// what says in a summary which lives they were.
	what string
	// kept says in a summary what was proved to be left after each phase.
	kept    string
	options []acctest.Option
	// config is the configuration the phase wants. The update changes everything
	// that changes in place, so that it moves quota where quota moves.
	config func(env *acctest.Environment, p phase) string
	// agree proves that after the phase state and cloud agree and nothing leaked.
	agree func(l *life, p phase)
	// replaceRoutes are the requests that delete what the life made, whoever sends
	// them: a create or an update must never send one.
	replaceRoutes []string
	// replacedIn is the phase whose configuration asks for a replacement, which may
	// send them; none when everything the update changes changes in place.
	replacedIn phase
	// chargedFor is what an error must name when identity charged an allocation whose
	// answer was lost; empty when the life never charges identity itself.
	chargedFor func(env *acctest.Environment) string
}

// subjects are the lives the fault tests run, in the order they run.
func subjects() []subject {
	var all []subject

	for _, backend := range acctest.Backends() {
		all = append(all, instanceSubject(backend))
	}

	return append(all, loadBalancerSubject(), fileStorageSubject(), volumeSubject(), identitySubject(), imageSubject(), kubernetesSubject())
}

// instanceSubject is an instance on backend.
func instanceSubject(backend acctest.Backend) subject {
	return subject{
		name:          backend.InstanceAPI,
		what:          fmt.Sprintf("instance_api = %q", backend.InstanceAPI),
		kept:          "zero leaked allocations, zero orphan servers, no instance replaced",
		options:       []acctest.Option{acctest.WithBackend(backend)},
		config:        instanceConfig,
		agree:         func(l *life, p phase) { instanceAgreement(l, backend, p) },
		replaceRoutes: []string{"DELETE /api/v2/servers/{serverID}", "DELETE " + sandbox.ComputePrefix + "/api/v2/instances/{instanceID}"},
		chargedFor: func(env *acctest.Environment) string {
			id, err := unikorn.DeriveServerID(env.NetworkID, "web")
			if err != nil {
				panic(err)
			}

			return "instance " + id
		},
	}
}

// instanceConfig is the instance as the phase wants it.
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

// instanceAgreement proves one server and one allocation for the instance in state,
// or none at all after a delete.
func instanceAgreement(l *life, backend acctest.Backend, p phase) {
	l.t.Helper()

	allocations := l.allocationsOf(compute.AllocationKind)

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

	l.requirePlanEmpty(p)

	servers := l.env.Servers(l.t, unikorn.ServerQuery{})
	require.Len(l.t, servers, 1, "exactly the instance's server")

	tag, _ := servers[0].Metadata.Tags.Get(compute.InstanceIDTag)
	require.Equal(l.t, id, tag)

	require.Len(l.t, allocations, 1, "exactly the instance's allocation; the failed runs said:\n%s", strings.Join(l.failures, "\n---\n"))
	require.Equal(l.t, id, allocations[0].Spec.ID)

	// Compute keeps the allocation's ID in its own record of the instance; region's
	// saga has only the server to keep it on.
	if backend == acctest.RegionBackend {
		allocationTag, _ := servers[0].Metadata.Tags.Get(compute.AllocationIDTag)
		require.Equal(l.t, allocations[0].Metadata.ID, allocationTag, "the server names its allocation")
	}
}

// loadBalancerAllocationKind is the kind region charges a load balancer's quota under.
const loadBalancerAllocationKind = "loadbalancers.region.unikorn-cloud.org"

// loadBalancerSubject is a load balancer, managed with an ordinary project user's
// token, as load balancers are a public API.
func loadBalancerSubject() subject {
	return subject{
		name:          "load-balancer",
		what:          "load balancers",
		kept:          "zero leaked allocations, zero orphan load balancers, none replaced",
		options:       []acctest.Option{acctest.WithBackend(acctest.ComputeBackend)},
		config:        loadBalancerConfig,
		agree:         loadBalancerAgreement,
		replaceRoutes: []string{"DELETE /api/v2/loadbalancers/{loadBalancerID}"},
	}
}

// loadBalancerConfig is the load balancer as the phase wants it. The update takes a
// member out, adds a listener, retags it and asks for a public IP, which moves quota
// and fills the address in asynchronously.
func loadBalancerConfig(env *acctest.Environment, p phase) string {
	tier, publicIP, members, extra := "a", "false", `{ address = "10.0.0.21", port = 8080 }, { address = "10.0.0.22", port = 8080 }`, ""
	if p != phaseCreate {
		tier, publicIP, members = "b", "true", `{ address = "10.0.0.21", port = 8080 }`
		extra = `
    dns = {
      protocol = "udp"
      port     = 53
      members  = [{ address = "10.0.0.21", port = 53 }]
    }`
	}

	return fmt.Sprintf(`
resource "unikorn_load_balancer" "test" {
  name              = "front"
  network_id        = %s
  tags              = { tier = %q }
  public_ip_enabled = %s

  listeners = {
    web = {
      protocol     = "tcp"
      port         = 80
      members      = [%s]
      health_check = { interval_seconds = 20 }
    }%s
  }
}
`, acctest.Quote(env.NetworkID), tier, publicIP, members, extra)
}

// loadBalancerAgreement proves one load balancer, with one allocation charging what
// it has, in the sandbox's own records for the one in state, or none at all after a
// delete.
func loadBalancerAgreement(l *life, p phase) {
	l.t.Helper()

	allocations := l.allocationsOf(loadBalancerAllocationKind)
	records := l.env.LoadBalancers(l.t)

	if p == phaseDelete {
		require.Empty(l.t, records, "no orphan load balancer")
		require.Empty(l.t, allocations, "no leaked allocation")
		require.NotContains(l.t, l.cli.Run("state", "list"), "unikorn_load_balancer.", "nothing left in state")

		return
	}

	l.requirePlanEmpty(p)

	require.Len(l.t, records, 1, "exactly one load balancer; the failed runs said:\n%s", strings.Join(l.failures, "\n---\n"))
	require.Contains(l.t, l.cli.Run("state", "show", "unikorn_load_balancer.test"), records[0].Metadata.ID, "the one in state")
	require.Equal(l.t, unikorn.ProvisioningProvisioned, records[0].Metadata.ProvisioningStatus)

	require.Len(l.t, allocations, 1, "exactly the load balancer's allocation")
	require.Equal(l.t, records[0].Metadata.ID, allocations[0].Spec.ID)

	publicIPs := slices.ContainsFunc(allocations[0].Spec.Allocations, func(a unikorn.ResourceAllocation) bool { return a.Kind == "publicips" })
	require.Equal(l.t, p != phaseCreate, publicIPs, "the public IP is charged exactly when asked for")
	require.Equal(l.t, p != phaseCreate, records[0].Status.PublicIP != "", "the public IP is there exactly when asked for")
}
