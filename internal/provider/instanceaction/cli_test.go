package instanceaction_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestAccActions_invokeFromCLI invokes both actions the way a person does, with
// `terraform apply -invoke`, and reads what the CLI prints: the progress of each
// action, a second stop that has nothing to do, and a refresh that shows the
// stopped instance with no change planned afterwards.
func TestAccActions_invokeFromCLI(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	acctest.SkipUnlessSupported(t, acctest.Actions)

	id, err := unikorn.DeriveServerID(env.NetworkID, "web")
	require.NoError(t, err)

	cli := env.CLI(t, env.WebInstance()+powerAction("stop", "stop")+snapshotAction(""))
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	stop := "-invoke=action.unikorn_compute_instance_power.stop"

	output := cli.Run("apply", "-auto-approve", "-input=false", stop)
	assert.Contains(t, output, "Asked the cloud to stop instance "+id+".")
	assert.Contains(t, output, "Instance "+id+" is Stopped.")
	assert.Equal(t, unikorn.PowerStopped, serverOf(t, env, "web").Status.PowerState)

	output = cli.Run("apply", "-auto-approve", "-input=false", stop)
	assert.Contains(t, output, "Instance "+id+" is already Stopped; nothing to do.")
	assert.Equal(t, 1, env.Stats(t).Routes[routeStop], "stopping a stopped instance called the cloud")

	output = cli.Run("apply", "-auto-approve", "-input=false", "-invoke=action.unikorn_compute_instance_snapshot.web")
	assert.Regexp(t, `Snapshot image [0-9a-f-]+ \(web-golden\) is pending\.`, output)
	assert.Regexp(t, `Snapshot image [0-9a-f-]+ is ready\.`, output)
	assert.Len(t, snapshotsOf(t, env), 1)

	cli.Run("apply", "-refresh-only", "-auto-approve", "-input=false")
	assert.Regexp(t, `power_state\s+= "Stopped"`, cli.Run("state", "show", "unikorn_compute_instance.web"))
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes.")
}
