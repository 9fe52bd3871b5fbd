package volumes_test

import (
	"fmt"
	"slices"
	"strings"
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

const instanceAddress = "unikorn_compute_instance.app"

// attached is a configuration of volumes a and b on network (an HCL expression) and
// the instance app on it, of flavor, attaching the volumes named (a, b) in that order.
func attached(env *acctest.Environment, network, flavor string, volumes ...string) string {
	names := make([]string, len(volumes))
	for i, name := range volumes {
		names[i] = "unikorn_volume." + name + ".id"
	}

	var b strings.Builder

	for _, name := range []string{"a", "b"} {
		fmt.Fprintf(&b, `
resource "unikorn_volume" %[1]q {
  name            = "data-%[1]s"
  network_id      = %[2]s
  volume_class_id = %[3]q
  size_gib        = 2
}
`, name, network, sandbox.VolumeClassStandardID)
	}

	b.WriteString(instanceApp(network, acctest.Quote(flavor), acctest.Quote(env.ImageID), names...))

	return b.String()
}

// serverOf is the one server the sandbox holds behind the instance in state s.
func serverOf(t *testing.T, env *acctest.Environment, s *terraform.State) unikorn.Server {
	t.Helper()

	servers := env.InstanceServers(t, idOf(s, instanceAddress))
	require.Len(t, servers, 1, "one server behind the instance")

	return servers[0]
}

// attachedExactly checks that the instance's server holds the volumes named, each
// provisioned with the device the instance's state shows, that region says each is
// attached and the other volume of the configuration is not, and returns the devices
// by volume name.
func attachedExactly(t *testing.T, env *acctest.Environment, s *terraform.State, names ...string) map[string]string {
	t.Helper()

	server := serverOf(t, env, s)
	attributes := s.RootModule().Resources[instanceAddress].Primary.Attributes
	devices := map[string]string{}

	var held []string
	for _, row := range server.Status.Volumes {
		held = append(held, row.ID)
	}

	for _, name := range []string{"a", "b"} {
		id := idOf(s, "unikorn_volume."+name)
		record := volumeRecord(t, env, id)

		if !slices.Contains(names, name) {
			assert.NotContains(t, held, id, "volume %s is not on the server", name)
			assert.Nil(t, record.Status.AttachedAt, "region says volume %s is not attached", name)
			assert.Empty(t, attributes["volume_attachments."+id+".device"], "the instance shows no device of volume %s", name)

			continue
		}

		i := slices.Index(held, id)
		if !assert.GreaterOrEqual(t, i, 0, "volume %s is on the server", name) {
			continue
		}

		row := server.Status.Volumes[i]
		assert.Equal(t, unikorn.ProvisioningProvisioned, row.ProvisioningStatus, "volume %s is attached", name)
		assert.NotEmpty(t, row.Device)
		assert.Equal(t, row.Device, attributes["volume_attachments."+id+".device"], "the instance shows volume %s's device", name)
		assert.Equal(t, "provisioned", attributes["volume_attachments."+id+".status"])
		assert.NotNil(t, record.Status.AttachedAt, "region says volume %s is attached", name)

		devices[name] = row.Device
	}

	assert.Len(t, held, len(names), "the server holds only the volumes named")

	return devices
}

// TestAccInstanceVolumes attaches volumes through an instance's volume_ids, on both
// instance paths. On the compute path the whole set changes in place: a volume
// attached on create, a second added (its own device, the first's kept), the first
// taken out (detached, the second's device kept), none; each apply waits until the
// server holds what the set names. On the region path, whose server API has no
// attachments, the plan stops saying so, and nothing is made. A look-up of a volume
// says whether it is attached.
func TestAccInstanceVolumes(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		network := acctest.Quote(env.NetworkID)

		if env.Settings.InstanceAPI == acctest.RegionBackend.InstanceAPI {
			before := env.LeftBehind(t)

			resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
				Config: env.ProviderConfig() + attached(env, network, env.FlavorID, "a"), PlanOnly: true,
				ExpectError: acctest.Says("Volumes need the compute instance API", "with unikorn_compute_instance.app",
					"volume_ids", `Set instance_api = "compute"`),
			}))

			assert.Equal(t, before, env.LeftBehind(t), "nothing was made")

			return
		}

		var (
			instanceID string
			devices    map[string]string
		)

		// What a look-up says of volume a, once the instance is as configured.
		lookUp := `
data "unikorn_volume" "a" {
  id         = unikorn_volume.a.id
  depends_on = [unikorn_compute_instance.app]
}
`
		attachedSays := func(attached bool) []statecheck.StateCheck {
			return []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.unikorn_volume.a", tfjsonpath.New("attached"), knownvalue.Bool(attached)),
			}
		}

		sameInstance := func(s *terraform.State) {
			require.Equal(t, instanceID, idOf(s, instanceAddress), "updated in place")
		}

		resource.ParallelTest(t, env.TestCase(t,
			resource.TestStep{
				Config:            env.ProviderConfig() + attached(env, network, env.FlavorID, "a") + lookUp,
				ConfigStateChecks: attachedSays(true),
				Check: func(s *terraform.State) error {
					instanceID = idOf(s, instanceAddress)
					devices = attachedExactly(t, env, s, "a")

					return nil
				},
			},
			resource.TestStep{
				Config:           env.ProviderConfig() + attached(env, network, env.FlavorID, "a", "b"),
				ConfigPlanChecks: acctest.ExpectAction(instanceAddress, plancheck.ResourceActionUpdate),
				Check: func(s *terraform.State) error {
					sameInstance(s)
					now := attachedExactly(t, env, s, "a", "b")
					assert.Equal(t, devices["a"], now["a"], "the first volume keeps its device")
					assert.NotEqual(t, now["a"], now["b"], "each volume has a device of its own")
					devices = now

					return nil
				},
			},
			resource.TestStep{
				Config:           env.ProviderConfig() + attached(env, network, env.FlavorID, "b"),
				ConfigPlanChecks: acctest.ExpectAction(instanceAddress, plancheck.ResourceActionUpdate),
				Check: func(s *terraform.State) error {
					sameInstance(s)
					assert.Equal(t, devices["b"], attachedExactly(t, env, s, "b")["b"], "the volume kept keeps its device")

					return nil
				},
			},
			resource.TestStep{
				Config:            env.ProviderConfig() + attached(env, network, env.FlavorID) + lookUp,
				ConfigPlanChecks:  acctest.ExpectAction(instanceAddress, plancheck.ResourceActionUpdate),
				ConfigStateChecks: attachedSays(false),
				Check: func(s *terraform.State) error {
					sameInstance(s)
					attachedExactly(t, env, s)

					return nil
				},
			},
		))

		assert.Empty(t, env.LeftBehind(t), "destroy leaves nothing")
	})
}

// TestAccVolumeKeptAcrossInstanceReplacement is the guide "Keeping data across
// instance replacement" as a project user lives it on the compute path, as production
// treats clients: one apply makes a network, a volume and an instance with the volume
// attached; the next plan is empty; a flavor change replaces the instance and attaches
// the same volume, made once and never since, to the new server in the same apply,
// with the file the old instance's guest wrote to it;
// destroy leaves nothing (volumes, attachments, instances, servers, allocations).
func TestAccVolumeKeptAcrossInstanceReplacement(t *testing.T) {
	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)
	require.Equal(t, sandbox.DefaultToken, env.Settings.Token, "the provider is a project user's")

	network := `
resource "unikorn_network" "app" {
  name      = "app"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.91.0.0/24"
}
`
	config := func(flavor string) string {
		return env.ProviderConfig() + network + attached(env, "unikorn_network.app.id", flavor, "a")
	}

	var (
		server  unikorn.Server
		created unikorn.Volume
	)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: config(sandbox.FlavorStandardID),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("unikorn_network.app", plancheck.ResourceActionCreate),
				plancheck.ExpectResourceAction("unikorn_volume.a", plancheck.ResourceActionCreate),
				plancheck.ExpectResourceAction(instanceAddress, plancheck.ResourceActionCreate),
			}},
			Check: func(s *terraform.State) error {
				attachedExactly(t, env, s, "a")
				server = serverOf(t, env, s)
				created = *volumeRecord(t, env, idOf(s, "unikorn_volume.a"))

				// The guest writes to the volume, as the guide's instance does to /srv/data.
				env.WriteVolumeFile(t, created.Metadata.ID, "/srv/data/orders.db", "order 1")

				return nil
			},
		},
		// The second plan is empty (a plan-only step fails on any change).
		resource.TestStep{Config: config(sandbox.FlavorStandardID), PlanOnly: true},
		resource.TestStep{
			Config: config(sandbox.FlavorGPUID),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(instanceAddress, plancheck.ResourceActionDestroyBeforeCreate),
				plancheck.ExpectResourceAction("unikorn_volume.a", plancheck.ResourceActionNoop),
			}},
			Check: func(s *terraform.State) error {
				replacement := serverOf(t, env, s)
				// Compute derives a server's ID from its instance's, as the instance's from
				// its network and name: the new server has the old one's ID.
				assert.True(t, replacement.Metadata.CreationTime.After(server.Metadata.CreationTime), "a new server")
				assert.Equal(t, sandbox.FlavorGPUID, replacement.Spec.FlavorID)
				attachedExactly(t, env, s, "a")

				volume := volumeRecord(t, env, idOf(s, "unikorn_volume.a"))
				assert.Equal(t, created.Metadata.ID, volume.Metadata.ID, "the same volume")
				assert.Equal(t, created.Metadata.CreationTime, volume.Metadata.CreationTime, "made once")
				assert.True(t, volume.Status.AttachedAt.After(*created.Status.AttachedAt), "attached again, to the new server")
				assert.Equal(t, map[string]string{"/srv/data/orders.db": "order 1"}, env.VolumeFiles(t, volume.Metadata.ID),
					"what the old instance wrote is there for the new one")

				return nil
			},
		},
		resource.TestStep{Config: config(sandbox.FlavorGPUID), PlanOnly: true},
	))

	assert.Empty(t, env.LeftBehind(t), "destroy leaves nothing: volumes, instances, servers, networks, allocations")
}

// TestAccVolumeMovedBetweenInstances moves a volume from one instance to another in
// one apply, each instance updated in place: the second waits while the first lets
// the volume go, and the volume ends on the second's server only. Volumes made by
// count are attached one to each instance made by count.
func TestAccVolumeMovedBetweenInstances(t *testing.T) {
	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	config := func(one, two string) string {
		return env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_volume" "moved" {
  name            = "moved"
  network_id      = %[1]q
  volume_class_id = %[2]q
  size_gib        = 2
}

resource "unikorn_volume" "scratch" {
  count           = 2
  name            = "scratch-${count.index}"
  network_id      = %[1]q
  volume_class_id = %[2]q
  size_gib        = 1
}

resource "unikorn_compute_instance" "worker" {
  count      = 2
  name       = "worker-${count.index}"
  network_id = %[1]q
  flavor_id  = %[3]q
  image_id   = %[4]q
  volume_ids = concat([unikorn_volume.scratch[count.index].id], count.index == 0 ? %[5]s : %[6]s)
}
`, env.NetworkID, env.VolumeClassID(t), env.FlavorID, env.ImageID, one, two)
	}

	moved := "[unikorn_volume.moved.id]"

	// holds checks that each worker's server holds exactly its scratch volume and, for
	// the worker named, the moved volume.
	holds := func(worker int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			movedID := idOf(s, "unikorn_volume.moved")

			for i := range 2 {
				servers := env.InstanceServers(t, idOf(s, fmt.Sprintf("unikorn_compute_instance.worker.%d", i)))
				require.Len(t, servers, 1)

				want := []string{idOf(s, fmt.Sprintf("unikorn_volume.scratch.%d", i))}
				if i == worker {
					want = append(want, movedID)
				}

				var got []string
				for _, row := range servers[0].Status.Volumes {
					assert.Equal(t, unikorn.ProvisioningProvisioned, row.ProvisioningStatus, "worker %d's %s", i, row.ID)
					got = append(got, row.ID)
				}

				assert.ElementsMatch(t, want, got, "worker %d's server", i)
			}

			return nil
		}
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{Config: config(moved, "[]"), Check: holds(0)},
		resource.TestStep{
			Config: config("[]", moved),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("unikorn_compute_instance.worker[0]", plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("unikorn_compute_instance.worker[1]", plancheck.ResourceActionUpdate),
			}},
			Check: holds(1),
		},
	))

	assert.Empty(t, env.LeftBehind(t), "destroy leaves nothing")
}

// TestAccAttachedVolumeResizedMadeFirst changes the size of an attached volume, which
// replaces it, with create_before_destroy as the plan's warning advises: the new
// volume is made, the instance updated in place to hold it, and the old volume deleted
// last, in one apply; the next plan is empty.
func TestAccAttachedVolumeResizedMadeFirst(t *testing.T) {
	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)

	config := func(sizeGiB int) string {
		return env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_network" "app" {
  name      = "app"
  region_id = %[1]q
  prefix    = "10.92.0.0/24"
}

resource "unikorn_volume" "a" {
  name            = "data-a"
  network_id      = unikorn_network.app.id
  volume_class_id = %[2]q
  size_gib        = %[3]d

  lifecycle {
    create_before_destroy = true
  }
}

resource "unikorn_volume" "b" {
  name            = "data-b"
  network_id      = unikorn_network.app.id
  volume_class_id = %[2]q
  size_gib        = 2
}

resource "unikorn_compute_instance" "app" {
  name       = "app"
  network_id = unikorn_network.app.id
  flavor_id  = %[4]q
  image_id   = %[5]q
  volume_ids = [unikorn_volume.a.id]
}
`, env.RegionID, sandbox.VolumeClassStandardID, sizeGiB, sandbox.FlavorStandardID, env.ImageID)
	}

	var old string

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: config(2),
			Check: func(s *terraform.State) error {
				attachedExactly(t, env, s, "a")
				old = idOf(s, "unikorn_volume.a")

				return nil
			},
		},
		resource.TestStep{
			Config: config(3),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("unikorn_volume.a", plancheck.ResourceActionCreateBeforeDestroy),
				plancheck.ExpectResourceAction(instanceAddress, plancheck.ResourceActionUpdate),
			}},
			Check: func(s *terraform.State) error {
				attachedExactly(t, env, s, "a")

				replacement := volumeRecord(t, env, idOf(s, "unikorn_volume.a"))
				assert.NotEqual(t, old, replacement.Metadata.ID, "a new volume")
				assert.EqualValues(t, 3, replacement.Spec.SizeGiB)

				for _, volume := range env.Volumes(t) {
					assert.NotEqual(t, old, volume.Metadata.ID, "the old volume is deleted")
				}

				return nil
			},
		},
		resource.TestStep{Config: config(3), PlanOnly: true},
	))

	assert.Empty(t, env.LeftBehind(t), "destroy leaves nothing")
}
