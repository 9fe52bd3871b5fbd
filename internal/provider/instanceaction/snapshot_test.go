package instanceaction_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// snapshotAction snapshots instance web; extra is added to its configuration.
func snapshotAction(extra string) string {
	return `
action "unikorn_compute_instance_snapshot" "web" {
  config {
    instance_id = unikorn_compute_instance.web.id
    name        = "web-golden"
    tags = {
      purpose                                 = "golden"
      "compute.unikorn-cloud.org:instance-id" = "forged"
    }
` + extra + `
  }
}
`
}

// snapshotsOf lists the images of any state that carry the provenance tag of
// instance web.
func snapshotsOf(t *testing.T, env *acctest.Environment) []unikorn.Image {
	t.Helper()

	id, err := unikorn.DeriveServerID(env.NetworkID, "web")
	require.NoError(t, err)

	images, err := env.Client.ListImagesV2(t.Context(), env.RegionID, unikorn.ImageQuery{
		OrganizationIDs: []string{env.Settings.OrganizationID},
		Scope:           "owned",
		Status:          []string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed},
	})
	require.NoError(t, err)

	var snapshots []unikorn.Image

	for _, image := range images {
		if value, _ := image.Metadata.Tags.Get(compute.SnapshotInstanceIDTag); value == id {
			snapshots = append(snapshots, image)
		}
	}

	return snapshots
}

// checkSnapshot checks that instance web has exactly one snapshot, ready, with the
// caller's tags, the real provenance and region's own tags.
func checkSnapshot(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	return func(*terraform.State) error {
		snapshots := snapshotsOf(t, env)
		if len(snapshots) != 1 {
			return fmt.Errorf("instance web has %d snapshots, want 1", len(snapshots))
		}

		image := snapshots[0]
		id, _ := unikorn.DeriveServerID(env.NetworkID, "web")

		want := map[string]string{
			"purpose":                         "golden",
			compute.SnapshotInstanceIDTag:     id,
			"images.unikorn-cloud.org:source": "snapshot",
		}
		for name, value := range want {
			if got, _ := image.Metadata.Tags.Get(name); got != value {
				return fmt.Errorf("snapshot tag %s is %q, want %q (tags %v)", name, got, value, image.Metadata.Tags)
			}
		}

		if image.Metadata.Name != "web-golden" || image.Status.State != unikorn.ImageReady {
			return fmt.Errorf("snapshot %s is %q, %s; want web-golden, ready", image.Metadata.ID, image.Metadata.Name, image.Status.State)
		}

		return nil
	}
}

// TestAccSnapshot_bootFromSnapshot snapshots an instance when a terraform_data is
// created, finds the image by its provenance with unikorn_images, and boots a new
// instance from it.
func TestAccSnapshot_bootFromSnapshot(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		base := env.ProviderConfig() + env.WebInstance() + snapshotAction("") +
			trigger("snapshot", "once", "action.unikorn_compute_instance_snapshot.web")

		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(acctest.Actions),
			Steps: []resource.TestStep{
				{
					Config: base,
					Check: resource.ComposeAggregateTestCheckFunc(
						checkSnapshot(t, env),
						checkCalledOnce(t, env, routeSnapshot),
					),
				},
				{
					Config: base + `
data "unikorn_images" "snapshots" {
  region_id   = unikorn_compute_instance.web.region_id
  instance_id = unikorn_compute_instance.web.id
}

resource "unikorn_compute_instance" "restored" {
  name       = "restored"
  network_id = unikorn_compute_instance.web.network_id
  flavor_id  = unikorn_compute_instance.web.flavor_id
  image_id   = one(data.unikorn_images.snapshots.images).id
}
`,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue("data.unikorn_images.snapshots", tfjsonpath.New("images"),
							knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
								"name":   knownvalue.StringExact("web-golden"),
								"status": knownvalue.StringExact("ready"),
							})})),
						statecheck.CompareValuePairs(
							"data.unikorn_images.snapshots", tfjsonpath.New("images").AtSliceIndex(0).AtMapKey("id"),
							"unikorn_compute_instance.restored", tfjsonpath.New("image_id"), compare.ValuesSame()),
						statecheck.ExpectKnownValue("unikorn_compute_instance.restored", tfjsonpath.New("power_state"), knownvalue.StringExact("Running")),
					},
					// The snapshot is taken once, when the terraform_data is created.
					Check: checkCalledOnce(t, env, routeSnapshot),
				},
			},
		})
	})
}

// TestAccSnapshot_failures shows what a user sees when a snapshot cannot be taken:
// an invalid name before anything is called, the cloud's refusal, and an image that
// is not ready in time.
func TestAccSnapshot_failures(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		base := env.ProviderConfig() + env.WebInstance()
		snapshot := func(input, extra string) string {
			return snapshotAction(extra) + trigger("snapshot", input, "action.unikorn_compute_instance_snapshot.web")
		}

		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(acctest.Actions),
			Steps: []resource.TestStep{
				{
					Config: base + `
action "unikorn_compute_instance_snapshot" "bad" {
  config {
    instance_id = "f0000000-0000-4000-8000-000000000001"
    name        = "web golden"
  }
}
`,
					ExpectError: regexp.MustCompile(`Invalid image name(.|\n)*"web golden" is not a valid image name`),
				},
				{Config: base},
				{
					PreConfig: func() {
						env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: "/api/v2/servers/{serverID}/snapshot", Status: 500, Count: 1})
					},
					Config: base + snapshot("refused", ""),
					// Region's failure reaches the provider directly, or as compute's own 500.
					ExpectError: regexp.MustCompile(`Unable to snapshot the instance(.|\n)*POST\s+/api/v2/(servers|instances)/[0-9a-f-]+/snapshot:\s+500\s+server_error`),
				},
				{
					// Images stay in progress for an hour from now on.
					PreConfig: func() {
						env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "1h"})
					},
					Config:      base + snapshot("slow", `    timeout = "1s"`),
					ExpectError: regexp.MustCompile(`Unable to snapshot the instance(.|\n)*Gave\s+up\s+waiting\s+for\s+image\s+[0-9a-f-]+\s+to\s+be\s+ready(.|\n)*may still finish(.|\n)*Raise\s+the\s+timeout`),
				},
				{Config: base},
			},
		})
	})
}
