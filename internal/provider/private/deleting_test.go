package private_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// beingDeleted is objects whose delete the cloud finishes later, each free to be
// deleted on its own, and the network (base) two of them stand on: region's objects
// under the environment's provider, the project under the empty organization's
// administrator.
func beingDeleted(t *testing.T, env *acctest.Environment) string {
	t.Helper()

	given := env.Given(t)
	onBase := acctest.With("network_id", "unikorn_network.base.id")

	return env.ProviderConfigWithAdmin() + strings.Join([]string{
		acctest.Block("unikorn_network", "alone", given),
		acctest.Block("unikorn_network", "base", given),
		acctest.Block("unikorn_security_group", "deleting", given, onBase),
		acctest.Block("unikorn_load_balancer", "deleting", given, onBase),
		acctest.Block("unikorn_compute_instance", "deleting", given),
		acctest.Block("unikorn_project", "deleting", given, acctest.Admin),
	}, "\n") + `
output "ids" {
  value = {
    network        = unikorn_network.alone.id
    security_group = unikorn_security_group.deleting.id
    load_balancer  = unikorn_load_balancer.deleting.id
    instance       = unikorn_compute_instance.deleting.id
    project        = unikorn_project.deleting.id
  }
}
`
}

// outputIDs is the output ids of beingDeleted: each object's ID by its kind.
func outputIDs(t *testing.T, cli *acctest.CLI) map[string]string {
	t.Helper()

	var ids map[string]string

	require.NoError(t, json.Unmarshal([]byte(cli.Run("output", "-json", "ids")), &ids))

	return ids
}

// deleteOutside deletes the objects of beingDeleted of the kinds given, outside
// Terraform, the cloud finishing each deletion delay later; an instance through its
// back end (region's the server behind it).
func deleteOutside(t *testing.T, env *acctest.Environment, ids map[string]string, delay string, kinds ...string) {
	t.Helper()

	env.UpdateSettings(t, sandbox.Settings{DeprovisionDelay: delay})

	ctx := context.Background()
	user := env.ClientAs(t, env.Settings.Token)

	for _, kind := range kinds {
		id := ids[kind]

		switch kind {
		case "network":
			require.NoError(t, user.DeleteNetwork(ctx, id))
		case "security_group":
			require.NoError(t, user.DeleteSecurityGroup(ctx, id))
		case "load_balancer":
			require.NoError(t, user.DeleteLoadBalancer(ctx, id))
		case "project":
			require.NoError(t, env.ClientAs(t, sandbox.AdminToken).DeleteProject(ctx, sandbox.EmptyOrganizationID, id))
		case "instance":
			if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
				require.NoError(t, user.DeleteInstance(ctx, id))

				continue
			}

			servers := env.InstanceServers(t, id)
			require.Len(t, servers, 1)
			require.NoError(t, user.DeleteServer(ctx, servers[0].Metadata.ID))
		default:
			t.Fatalf("beingDeleted makes no %s", kind)
		}
	}
}

// TestAccApplyReplacesAnObjectBeingDeleted applies the plan of objects deleted
// outside Terraform whose deletion the cloud finishes a few seconds later: the apply
// deletes each again (region and identity accept a repeated delete), waits until it
// is gone and creates it anew, and the next plan has nothing to do. Only what is
// being deleted is replaced: not the network the security group and the load
// balancer stand on. (That the plan replaces each type's object being deleted, with
// a warning, is the seams suite's TestAccSeamsDeletingIsNoHealthyObject.)
func TestAccApplyReplacesAnObjectBeingDeleted(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		cli := acctest.ApplyInProcesses(t, beingDeleted(t, env))
		ids := outputIDs(t, cli)
		deleteOutside(t, env, ids, "12s", "network", "security_group", "load_balancer", "project", "instance")

		apply := cli.Run("apply", "-auto-approve", "-input=false")
		assert.Contains(t, apply, "unikorn_network.alone must be replaced", "planned before the deletion ended")
		assert.NotContains(t, apply, "unikorn_network.base must be replaced", "only what is being deleted is replaced")

		assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")

		replaced := outputIDs(t, cli)

		for _, kind := range []string{"network", "security_group", "load_balancer", "project", "instance"} {
			if kind != "instance" { // an instance's ID derives from its network and name
				assert.NotEqual(t, ids[kind], replaced[kind], kind)
			}
		}
	})
}
