package volumes_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestAccVolume_lifecycle lives a volume's whole life as production treats clients
// (read lag, visibility): made and provisioned, its size charged in GiB; renamed,
// described and retagged in place; replaced for a new size and for a new class, the
// old volume and its charge gone each time; imported by ID and by identity; and after
// destroy the sandbox holds no volume or quota charge it made.
func TestAccVolume_lifecycle(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	created := newVolume(t, env)
	created.Description = "first"
	created.Tags = `{ team = "a" }`

	renamed := created
	renamed.Name, renamed.Description, renamed.Tags = "data-renamed", "second", `{ team = "b", tier = "gold" }`

	grown := renamed
	grown.SizeGiB = 20

	reclassed := grown
	reclassed.ClassID = sandbox.VolumeClassFastID

	var id string

	// replaced checks that the volume is a new one of size GiB and class, and that the
	// one before it is gone with its charge.
	replaced := func(size int, class string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			now := idOf(s, volumeAddress)
			assert.NotEqual(t, id, now, "replaced")
			assert.NotContains(t, volumeIDs(t, env), id, "the replaced volume is gone")
			assert.Zero(t, chargedGiB(t, env, id), "and so is its charge")

			record := volumeRecord(t, env, now)
			assert.Equal(t, int64(size), record.Spec.SizeGiB)
			assert.Equal(t, class, record.Spec.VolumeClassID)
			assert.Equal(t, size, chargedGiB(t, env, now))

			id = now

			return nil
		}
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: env.ProviderConfig() + created.String(),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(volumeAddress, plancheck.ResourceActionCreate),
				// The place is known at plan from the network's.
				plancheck.ExpectUnknownValue(volumeAddress, tfjsonpath.New("id")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(volumeAddress, tfjsonpath.New("region_id"), knownvalue.StringExact(env.RegionID)),
				statecheck.ExpectKnownValue(volumeAddress, tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.ProjectID)),
				statecheck.ExpectKnownValue(volumeAddress, tfjsonpath.New("organization_id"), knownvalue.StringExact(sandbox.OrganizationID)),
				statecheck.ExpectKnownValue(volumeAddress, tfjsonpath.New("tags"), knownvalue.MapExact(map[string]knownvalue.Check{
					"team": knownvalue.StringExact("a"),
				})),
				statecheck.ExpectIdentityValueMatchesState(volumeAddress, tfjsonpath.New("id")),
			},
			Check: func(s *terraform.State) error {
				id = idOf(s, volumeAddress)
				record := volumeRecord(t, env, id)

				// The create waited until region provisioned it.
				assert.Equal(t, unikorn.ProvisioningProvisioned, record.Metadata.ProvisioningStatus)
				assert.Equal(t, env.NetworkID, record.Spec.NetworkID)
				assert.Equal(t, "first", record.Metadata.Description)
				assert.Equal(t, 10, chargedGiB(t, env, id), "the size is charged in GiB")

				return nil
			},
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + renamed.String(),
			ConfigPlanChecks: acctest.ExpectAction(volumeAddress, plancheck.ResourceActionUpdate),
			Check: func(s *terraform.State) error {
				require.Equal(t, id, idOf(s, volumeAddress), "updated in place")

				record := volumeRecord(t, env, id)
				assert.Equal(t, "data-renamed", record.Metadata.Name)
				assert.Equal(t, "second", record.Metadata.Description)
				assert.Len(t, record.Metadata.Tags, 2)
				assert.Equal(t, 10, chargedGiB(t, env, id), "the charge is as it was")

				return nil
			},
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + grown.String(),
			ConfigPlanChecks: acctest.ExpectAction(volumeAddress, plancheck.ResourceActionDestroyBeforeCreate),
			Check:            replaced(20, env.VolumeClassID(t)),
		},
		resource.TestStep{
			Config:           env.ProviderConfig() + reclassed.String(),
			ConfigPlanChecks: acctest.ExpectAction(volumeAddress, plancheck.ResourceActionDestroyBeforeCreate),
			Check:            replaced(20, sandbox.VolumeClassFastID),
		},
		resource.TestStep{ResourceName: volumeAddress, ImportState: true, ImportStateVerify: true},
		resource.TestStep{ResourceName: volumeAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
	))

	after := recordsOf(t, env)
	assert.Equal(t, before.volumes, after.volumes, "no volume left")
	assert.Equal(t, before.allocations, after.allocations, "no quota charge left")
}

// TestAccVolume_replacementWarns says, when a plan replaces a volume, which change
// does it and that the data goes with the old volume; a change in place says nothing
// of the kind.
func TestAccVolume_replacementWarns(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	created := newVolume(t, env)
	cli := env.CLI(t, created.String())
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	id := volumeIDs(t, env)
	require.Len(t, id, 1)

	for change, edit := range map[string]func(v *volume){
		"size_gib":        func(v *volume) { v.SizeGiB = 11 },
		"volume_class_id": func(v *volume) { v.ClassID = sandbox.VolumeClassFastID },
	} {
		changed := created
		edit(&changed)
		cli.WriteConfig(env.ProviderConfig() + changed.String())

		output := cli.Run("plan", "-input=false")
		assert.Regexp(t, acctest.Says("Warning: Volume will be replaced",
			fmt.Sprintf(`Changing %s replaces volume "data" (%s)`, change, id[0]),
			"a new, empty volume is made, and this one is deleted with its data"), output, change)
		assert.Contains(t, output, "must be replaced", change)
	}

	renamed := created
	renamed.Name = "renamed"
	cli.WriteConfig(env.ProviderConfig() + renamed.String())
	output := cli.Run("plan", "-input=false")
	assert.NotContains(t, output, "Warning", "a rename replaces nothing")
	assert.Contains(t, output, "1 to change")
}

// TestAccVolume_classChecks refuses at plan, on the attribute at fault, the class and
// size region would refuse, naming the class's bounds or its region, and creates
// nothing. With the network made in the same apply the region is not known at plan:
// a size that no class of the ID takes is still refused at plan, and a class of
// another region at apply, before anything is sent; the network the apply made is
// all that exists.
func TestAccVolume_classChecks(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	step := func(edit func(v *volume), phrases ...string) resource.TestStep {
		v := newVolume(t, env)
		edit(&v)

		return resource.TestStep{Config: env.ProviderConfig() + v.String(), PlanOnly: true, ExpectError: acctest.Says(phrases...)}
	}

	network := `
resource "unikorn_network" "new" {
  name      = "new"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.90.0.0/24"
}
`
	onNew := func(edit func(v *volume)) string {
		v := newVolume(t, env)
		v.Network = "unikorn_network.new.id"
		edit(&v)

		return env.ProviderConfig() + network + v.String()
	}

	resource.ParallelTest(t, env.TestCase(t,
		step(func(v *volume) { v.ClassID, v.SizeGiB = sandbox.VolumeClassFastID, 5 },
			"Volume too small for its class", "with unikorn_volume.this", "size_gib",
			"A volume of 5 GiB is below the minimum of volume class sim-fast-volume", "10 GiB", "Choose a size_gib from 10 to 2048 GiB"),
		step(func(v *volume) { v.SizeGiB = 20000 },
			"Volume too large for its class", "size_gib", "exceeds the maximum of volume class sim-standard-volume", "16384 GiB"),
		step(func(v *volume) { v.ClassID = sandbox.VolumeClassPrivateID },
			"Volume class of another region", "volume_class_id", "is of region "+sandbox.PrivateRegionID,
			"but the network is in region "+sandbox.RegionID, "Use a class of region "+sandbox.RegionID+": sim-fast-volume"),
		step(func(v *volume) { v.ClassID = "no-such-class" }, "Volume class not found", "volume_class_id"),
		step(func(v *volume) { v.Network = acctest.Quote("c0000000-0000-4000-8000-0000000000ff") }, "Network not found", "network_id"),
		step(func(v *volume) { v.SizeGiB = 0 }, "size_gib", "at least 1"),
		// The network is new: the size alone is judged at plan.
		resource.TestStep{
			Config: onNew(func(v *volume) { v.SizeGiB = 20000 }), PlanOnly: true, ExpectNonEmptyPlan: true,
			ExpectError: acctest.Says("Volume too large for its class", "size_gib"),
		},
		// A class of another region: the plan cannot know, so it plans the volume ...
		resource.TestStep{
			Config: onNew(func(v *volume) { v.ClassID = sandbox.VolumeClassPrivateID }), PlanOnly: true, ExpectNonEmptyPlan: true,
		},
		// ... and the apply refuses it before anything is sent.
		resource.TestStep{
			Config:      onNew(func(v *volume) { v.ClassID = sandbox.VolumeClassPrivateID }),
			ExpectError: acctest.Says("Volume class of another region", "volume_class_id"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(volumeAddress, tfjsonpath.New("region_id")),
			}},
		},
	))

	after := recordsOf(t, env)
	assert.Zero(t, env.Stats(t).Routes["POST /api/v2/volumes"], "no create was sent")
	assert.Equal(t, before.volumes, after.volumes, "no volume was made")
	assert.Equal(t, before.allocations, after.allocations, "and nothing charged")
}

// TestAccVolume_quota charges each volume's size in GiB to the `volume` quota, once an
// operator sets one: a volume the quota does not hold is refused, naming the quota and
// the size, and nothing is made; one that fits is made, and its delete frees the room.
func TestAccVolume_quota(t *testing.T) {
	env := acctest.New(t, acctest.WithQuota("volume", 12))
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	fits := newVolume(t, env)
	tooBig := fits
	tooBig.SizeGiB = 13

	second := `
resource "unikorn_volume" "second" {
  name            = "second"
  network_id      = ` + acctest.Quote(env.NetworkID) + `
  volume_class_id = ` + acctest.Quote(env.VolumeClassID(t)) + `
  size_gib        = 3
}
`

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config:      env.ProviderConfig() + tooBig.String(),
			ExpectError: acctest.Says("volume quota does not hold another 13 GiB", "Nothing was created", "Choose a smaller size_gib"),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + fits.String(),
			Check: func(*terraform.State) error {
				assert.Equal(t, 2, env.FreeQuota(t, "volume"), "10 of 12 GiB charged")

				return nil
			},
		},
		resource.TestStep{
			Config:      env.ProviderConfig() + fits.String() + second,
			ExpectError: acctest.Says("volume quota does not hold another 3 GiB", "Nothing was created"),
		},
		// The first volume's delete frees the room the second needs (in an apply of
		// its own: Terraform would make the second beside the delete, not after it).
		resource.TestStep{
			Config: env.ProviderConfig(),
			Check: func(*terraform.State) error {
				assert.Equal(t, 12, env.FreeQuota(t, "volume"), "the charge went with the volume")

				return nil
			},
		},
		resource.TestStep{Config: env.ProviderConfig() + second},
	))

	after := recordsOf(t, env)
	assert.Equal(t, before.volumes, after.volumes, "no volume left")
	assert.Equal(t, before.allocations, after.allocations, "no quota charge left")
}
