package snapshot_test

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const snapshotAddress = "unikorn_snapshot.golden"

// snapshotRoute is the sandbox route template of the snapshot call (a POST) of the
// environment's instance back end.
func snapshotRoute(env *acctest.Environment) string {
	if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
		return sandbox.ComputePrefix + "/api/v2/instances/{instanceID}/snapshot"
	}

	return "/api/v2/servers/{serverID}/snapshot"
}

// snapshotsSent is how many snapshots the environment's back end was asked for.
func snapshotsSent(t *testing.T, env *acctest.Environment) int {
	return env.Stats(t).Routes[http.MethodPost+" "+snapshotRoute(env)]
}

// config is instance web on the environment's network and a snapshot of it, with
// tags role = role.
func config(env *acctest.Environment, name, role string) string {
	return env.ProviderConfig() + env.WebInstance() + fmt.Sprintf(`
resource "unikorn_snapshot" "golden" {
  instance_id = unikorn_compute_instance.web.id
  name        = %[1]s
  tags = {
    role = %[2]s
  }
}
`, acctest.Quote(name), acctest.Quote(role))
}

// snapshotsOf lists the images, in any state, made from instance web.
func snapshotsOf(t *testing.T, env *acctest.Environment) []unikorn.Image {
	t.Helper()

	id, err := unikorn.DeriveServerID(env.NetworkID, "web")
	require.NoError(t, err)

	images, err := env.Client.ListImagesV2(t.Context(), env.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{env.Settings.OrganizationID}, Scope: unikorn.ImageScopeOwned,
		Status: []string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed},
	})
	require.NoError(t, err)

	var snapshots []unikorn.Image

	for _, image := range images {
		if from, _ := image.Metadata.Tags.Get(compute.SnapshotInstanceIDTag); from == id {
			snapshots = append(snapshots, image)
		}
	}

	return snapshots
}

// checkOneSnapshot checks that instance web has exactly one image, the one in the
// state, ready and tagged role = role. The test's own reads trail writes by the read
// lag as the provider's do, so the check is repeated until the lag has passed.
func checkOneSnapshot(t *testing.T, env *acctest.Environment, role string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		return pastReadLag(func() error {
			snapshots := snapshotsOf(t, env)
			if len(snapshots) != 1 {
				return fmt.Errorf("instance web has %d images, want 1", len(snapshots))
			}

			image := snapshots[0]
			if id := s.RootModule().Resources[snapshotAddress].Primary.ID; image.Metadata.ID != id {
				return fmt.Errorf("the image of instance web is %s, but the state holds %s", image.Metadata.ID, id)
			}

			if got, _ := image.Metadata.Tags.Get("role"); got != role || image.Status.State != unikorn.ImageReady {
				return fmt.Errorf("image %s is %s with role %q, want ready with role %q", image.Metadata.ID, image.Status.State, got, role)
			}

			return nil
		})
	}
}

// pastReadLag runs check until it passes or the read lag has passed.
func pastReadLag(check func() error) error {
	settled := time.Now().Add(acctest.ProductionReadLag + time.Second)

	for {
		err := check()
		if err == nil || time.Now().After(settled) {
			return err
		}

		time.Sleep(100 * time.Millisecond)
	}
}

// checkSnapshotsSent checks how many snapshots the back ends were asked for.
func checkSnapshotsSent(t *testing.T, env *acctest.Environment, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := snapshotsSent(t, env); got != want {
			return fmt.Errorf("%d snapshots were sent, want %d", got, want)
		}

		return nil
	}
}

// checkNoSnapshot is a CheckDestroy: destroy leaves no image of instance web.
func checkNoSnapshot(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	return func(*terraform.State) error {
		return pastReadLag(func() error {
			if snapshots := snapshotsOf(t, env); len(snapshots) != 0 {
				return fmt.Errorf("destroy left %d images of instance web", len(snapshots))
			}

			return nil
		})
	}
}

// forEachBackend runs the steps made by steps on each instance back end, with the
// read lag of production, and checks that destroy leaves no image of instance web.
func forEachBackend(t *testing.T, steps func(t *testing.T, env *acctest.Environment) []resource.TestStep) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		test := env.TestCase(t, steps(t, env)...)
		test.CheckDestroy = checkNoSnapshot(t, env)
		resource.ParallelTest(t, test)
	}, acctest.Production(t))
}

// TestAccSnapshotResource_invalidName refuses at plan, on the attribute, a name or a
// tag region would refuse, and at apply an instance that does not exist, before
// anything is created.
func TestAccSnapshotResource_invalidName(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config:      config(env, "-golden", "web"),
		PlanOnly:    true,
		ExpectError: regexp.MustCompile(`(?s)Invalid image name.*"-golden" is not a valid image name`),
	}, resource.TestStep{
		Config: env.ProviderConfig() + `
resource "unikorn_snapshot" "golden" {
  instance_id = "c0000000-0000-4000-8000-000000000001"
  name        = "golden"
  tags        = { "compute.unikorn-cloud.org:instance-id" = "forged" }
}
`,
		PlanOnly:    true,
		ExpectError: regexp.MustCompile(`(?s)Invalid tag name.*reserved by Unikorn`),
	}, resource.TestStep{
		Config: env.ProviderConfig() + `
resource "unikorn_snapshot" "golden" {
  instance_id = "c0000000-0000-4000-8000-000000000001"
  name        = "golden"
}
`,
		ExpectError: regexp.MustCompile(`(?s)Unable to read the instance to snapshot.*The instance does not exist`),
	}))

	assert.Zero(t, snapshotsSent(t, env), "nothing was snapshotted")
}

// TestAccSnapshotResource_lifecycle makes an image of an instance with the read lag of
// production, reads and imports it, replaces it when its tags change (region cannot
// change an image) and deletes it on destroy, on each instance back end.
func TestAccSnapshotResource_lifecycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, env *acctest.Environment) []resource.TestStep {
		var firstID string

		return []resource.TestStep{
			{
				Config: config(env, "web-golden", "web"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(snapshotAddress, tfjsonpath.New("status"), knownvalue.StringExact(unikorn.ImageReady)),
					statecheck.ExpectKnownValue(snapshotAddress, tfjsonpath.New("region_id"), knownvalue.StringExact(env.RegionID)),
					statecheck.ExpectKnownValue(snapshotAddress, tfjsonpath.New("organization_id"),
						knownvalue.StringExact(env.Settings.OrganizationID)),
					statecheck.ExpectKnownValue(snapshotAddress, tfjsonpath.New("tags"),
						knownvalue.MapExact(map[string]knownvalue.Check{"role": knownvalue.StringExact("web")})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(snapshotAddress, "instance_id", "unikorn_compute_instance.web", "id"),
					resource.TestCheckResourceAttrSet(snapshotAddress, "creation_time"),
					checkOneSnapshot(t, env, "web"),
					checkSnapshotsSent(t, env, 1),
					func(s *terraform.State) error {
						firstID = s.RootModule().Resources[snapshotAddress].Primary.ID

						return nil
					},
				),
			},
			{ResourceName: snapshotAddress, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
			{ResourceName: snapshotAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{
				Config: config(env, "web-golden", "golden"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(snapshotAddress, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction("unikorn_compute_instance.web", plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkOneSnapshot(t, env, "golden"),
					checkSnapshotsSent(t, env, 2),
					func(s *terraform.State) error {
						if s.RootModule().Resources[snapshotAddress].Primary.ID == firstID {
							return fmt.Errorf("new tags kept image %s", firstID)
						}

						return nil
					},
				),
			},
		}
	})
}

// TestAccSnapshotResource_lostAnswer loses the answer to the snapshot after the cloud
// made the image: the image is found by its provenance and name and adopted, never
// snapshotted twice, and the next plan is empty.
func TestAccSnapshotResource_lostAnswer(t *testing.T) {
	forEachBackend(t, func(t *testing.T, env *acctest.Environment) []resource.TestStep {
		return []resource.TestStep{{
			PreConfig: func() {
				env.AddFault(t, sandbox.FaultRule{
					Method: http.MethodPost, Route: snapshotRoute(env), Status: http.StatusBadGateway, Count: 1, Phase: sandbox.FaultPhaseAfter,
				})
			},
			Config: config(env, "web-golden", "web"),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkOneSnapshot(t, env, "web"),
				checkSnapshotsSent(t, env, 1),
			),
		}}
	})
}

// TestAccSnapshotResource_deletedOutside drops from the state an image deleted behind
// Terraform's back, once region's 404 has outlasted its read lag, and makes it again.
func TestAccSnapshotResource_deletedOutside(t *testing.T) {
	forEachBackend(t, func(t *testing.T, env *acctest.Environment) []resource.TestStep {
		return []resource.TestStep{
			{Config: config(env, "web-golden", "web")},
			{
				PreConfig: func() {
					snapshots := snapshotsOf(t, env)
					require.Len(t, snapshots, 1)
					require.NoError(t, env.Client.DeleteImage(t.Context(), env.Settings.OrganizationID, env.RegionID, snapshots[0].Metadata.ID))
					// Region's cache lists a deleted image as it was for the read lag,
					// and a refresh within it rightly keeps it.
					time.Sleep(acctest.ProductionReadLag)
				},
				Config: config(env, "web-golden", "web"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(snapshotAddress, plancheck.ResourceActionCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(checkOneSnapshot(t, env, "web"), checkSnapshotsSent(t, env, 2)),
			},
		}
	})
}

// TestAccSnapshotResource_importNotASnapshot refuses to import an image that was not
// made from an instance: the resource manages only snapshots.
func TestAccSnapshotResource_importNotASnapshot(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	config := env.ProviderConfig() + `
resource "unikorn_snapshot" "golden" {
  instance_id = "c0000000-0000-4000-8000-000000000001"
  name        = "golden"
}
`
	refused := regexp.MustCompile(`(?s)Not a snapshot image.*` + regexp.QuoteMeta(env.ImageID) + `.*was\s+not\s+made\s+from\s+a\s+compute\s+instance`)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{Config: config, ResourceName: snapshotAddress, ImportState: true, ImportStateId: env.ImageID, ExpectError: refused},
	))

	assert.Zero(t, snapshotsSent(t, env), "nothing was snapshotted")
}
