package volumes_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// armInstance is an instance of the Arm flavor, which the fast class does not
// support, attaching the volume the expression names.
func armInstance(volume string) string {
	return instanceApp(acctest.Quote(sandbox.NetworkDefaultID), acctest.Quote(sandbox.FlavorArmID), acctest.Quote(sandbox.ImageUbuntuArmID), volume)
}

func fastVolume(name string) string {
	return fmt.Sprintf(`
resource "unikorn_volume" %[1]q {
  name            = %[1]q
  network_id      = %[2]q
  volume_class_id = %[3]q
  size_gib        = 10
}
`, name, sandbox.NetworkDefaultID, sandbox.VolumeClassFastID)
}

// TestAccVolumeFlavorNotSupported refuses a volume whose class does not support the
// instance's flavor: at plan, on volume_ids, naming the class and the flavor, when
// the volume exists; at apply, before the instance is made, when the volume is made
// in the same apply. No instance, server or charge of one is left.
func TestAccVolumeFlavorNotSupported(t *testing.T) {
	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend))
	env.SkipUnlessSandbox(t)

	refusal := []string{"Volume class does not support the flavor", "with unikorn_compute_instance.app", "volume_ids",
		"is of class sim-fast-volume (" + sandbox.VolumeClassFastID + "), which does not support the instance's flavor",
		sandbox.FlavorArmID, "Choose a flavor the class supports"}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{Config: env.ProviderConfig() + fastVolume("kept")},
		resource.TestStep{
			Config: env.ProviderConfig() + fastVolume("kept") + armInstance("unikorn_volume.kept.id"), PlanOnly: true,
			ExpectError: acctest.Says(refusal...),
		},
		resource.TestStep{
			// The new volume's ID is not known at plan.
			Config:      env.ProviderConfig() + fastVolume("kept") + fastVolume("late") + armInstance("unikorn_volume.late.id"),
			ExpectError: acctest.Says(refusal...),
		},
		resource.TestStep{
			// What the failed apply made: the volumes, and no instance.
			Config:           env.ProviderConfig() + fastVolume("kept") + fastVolume("late"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check: func(*terraform.State) error {
				assert.Len(t, volumeIDs(t, env), 2)

				for _, object := range env.LeftBehind(t) {
					assert.NotContains(t, []string{sandbox.ObjectInstance, sandbox.ObjectServer}, object.Kind,
						"no instance is made: %v", object)
				}

				return nil
			},
		},
	))

	assert.Empty(t, env.LeftBehind(t), "destroy leaves nothing")
}

// TestAccVolumeHeldByAnotherConfiguration destroys a volume that an instance of
// another configuration holds: the destroy stops in seconds, naming the instance and
// saying that nothing was deleted, with the remedy for a holder this configuration
// does not manage; followed (the instance lets the volume go), the destroy goes through.
func TestAccVolumeHeldByAnotherConfiguration(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	owner := env.CLI(t, newVolume(t, env).String())
	owner.Run("apply", "-auto-approve", "-input=false")

	volumes := volumeIDs(t, env)
	require.Len(t, volumes, 1)

	instance := func(volumes ...string) string {
		return instanceApp(acctest.Quote(env.NetworkID), acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID), volumes...)
	}

	holder := env.CLI(t, instance(acctest.Quote(volumes[0])))
	holder.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() {
		holder.Run("destroy", "-auto-approve", "-input=false")
		owner.Run("destroy", "-auto-approve", "-input=false")
		assert.Empty(t, env.LeftBehind(t), "nothing is left")
	})

	began := time.Now()
	output, err := owner.Try("destroy", "-auto-approve", "-input=false")
	require.Error(t, err, output)
	assert.Less(t, time.Since(began), time.Minute, "the refusal is reported at once, not at the delete's timeout")
	assert.Regexp(t, acctest.Says("Error: Unable to delete the volume", `What uses it: instance "app"`, "Nothing was deleted",
		"If what is named above is not managed by this configuration, detach it from the volume or delete it, "+
			"then run `terraform apply` again"), output)
	assert.True(t, slices.Contains(volumeIDs(t, env), volumes[0]), "the volume is still there")

	holder.WriteConfig(env.ProviderConfig() + instance())
	holder.Run("apply", "-auto-approve", "-input=false")
	owner.Run("destroy", "-auto-approve", "-input=false")
	assert.Empty(t, volumeIDs(t, env), "the volume is gone")
}

// TestAccNetworkHeldByAVolume destroys a network that a volume of another
// configuration is on, as a project user on the compute path: region refuses while
// the volume lasts, and the error names the volume, which the token can see; once
// the volume is gone the network goes.
func TestAccNetworkHeldByAVolume(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	owner := env.CLI(t, `
resource "unikorn_network" "held" {
  name      = "held"
  region_id = `+acctest.Quote(env.RegionID)+`
  prefix    = "10.92.0.0/24"
}

output "id" {
  value = unikorn_network.held.id
}
`)
	owner.Run("apply", "-auto-approve", "-input=false")
	networkID := strings.TrimSpace(owner.Run("output", "-raw", "id"))

	v := newVolume(t, env)
	v.Network = acctest.Quote(networkID)
	holder := env.CLI(t, v.String())
	holder.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() {
		holder.Run("destroy", "-auto-approve", "-input=false")
		owner.Run("destroy", "-auto-approve", "-input=false")
		assert.Empty(t, env.LeftBehind(t), "nothing is left")
	})

	output, err := owner.Try("destroy", "-auto-approve", "-input=false")
	require.Error(t, err, output)
	assert.Regexp(t, acctest.Says("Error: Unable to delete the network", `What uses it:`, `volume "data"`, "Nothing was deleted"), output)
	assert.NotContains(t, acctest.Unwrapped(output), "none that the token can see")

	holder.Run("destroy", "-auto-approve", "-input=false")
	owner.Run("destroy", "-auto-approve", "-input=false")
}
