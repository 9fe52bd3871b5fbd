package catalogue_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestAccImages_filters runs every filter over the sandbox's eight fixture images,
// all ready and listed by name: debian-12-amd64, ubuntu-24.04-amd64,
// ubuntu-24.04-arm64, ubuntu-24.04-gpu-amd64, the Kubernetes node images
// ubuntu-24.04-kubernetes-v1.30.4-amd64, ubuntu-24.04-kubernetes-v1.31.0-amd64 and
// ubuntu-24.04-kubernetes-v1.31.0-arm64, and ubuntu-24.04-metal.
func TestAccImages_filters(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	const all = "data.unikorn_images.all"

	every := []string{"debian-12-amd64", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64",
		"ubuntu-24.04-kubernetes-v1.30.4-amd64", "ubuntu-24.04-kubernetes-v1.31.0-amd64", "ubuntu-24.04-kubernetes-v1.31.0-arm64", "ubuntu-24.04-metal"}
	cases := []filtered{
		{"all", nil, every},
		{"name", []string{`name = "ubuntu-24.04-metal"`}, []string{"ubuntu-24.04-metal"}},
		{"aarch64", []string{`architecture = "aarch64"`}, []string{"ubuntu-24.04-arm64", "ubuntu-24.04-kubernetes-v1.31.0-arm64"}},
		{"debian", []string{`os_distro = "debian"`}, []string{"debian-12-amd64"}},
		{"ubuntu_x86_64", []string{`os_distro = "ubuntu"`, `os_version = "24.04"`, `architecture = "x86_64"`},
			[]string{"ubuntu-24.04-amd64", "ubuntu-24.04-gpu-amd64", "ubuntu-24.04-kubernetes-v1.30.4-amd64", "ubuntu-24.04-kubernetes-v1.31.0-amd64", "ubuntu-24.04-metal"}},
		{"ready", []string{`status = ["ready"]`}, every},
		{"failed", []string{`status = ["failed"]`}, nil},
		{"nothing", []string{`os_version = "99.99"`}, nil},
	}

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: filtersConfig(env, "unikorn_images", cases),
		ConfigStateChecks: append(filtersChecks("unikorn_images", "images", cases),
			// Every attribute, once with a GPU driver and once without.
			statecheck.ExpectKnownValue(all, tfjsonpath.New("images").AtSliceIndex(3), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":             knownvalue.StringExact(sandbox.ImageUbuntuGPUID),
				"name":           knownvalue.StringExact("ubuntu-24.04-gpu-amd64"),
				"architecture":   knownvalue.StringExact("x86_64"),
				"size_gib":       knownvalue.Int64Exact(30),
				"virtualization": knownvalue.StringExact("virtualized"),
				"os": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"kernel":   knownvalue.StringExact("linux"),
					"family":   knownvalue.StringExact("debian"),
					"distro":   knownvalue.StringExact("ubuntu"),
					"version":  knownvalue.StringExact("24.04"),
					"variant":  knownvalue.StringExact("server"),
					"codename": knownvalue.StringExact("noble"),
				}),
				"gpu": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"vendor": knownvalue.StringExact("NVIDIA"),
					"driver": knownvalue.StringExact("550.54.15"),
					"models": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("L4")}),
				}),
				"software_versions": knownvalue.MapExact(map[string]knownvalue.Check{}),
				"status":            knownvalue.StringExact("ready"),
				"tags":              knownvalue.MapExact(map[string]knownvalue.Check{}),
				"creation_time":     knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`)),
			})),
			statecheck.ExpectKnownValue(all, tfjsonpath.New("images").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"id":             knownvalue.StringExact(sandbox.ImageDebianID),
				"virtualization": knownvalue.StringExact("any"),
				"gpu":            knownvalue.Null(),
			})),
			// A Kubernetes node image says which Kubernetes it carries.
			statecheck.ExpectKnownValue(all, tfjsonpath.New("images").AtSliceIndex(5), knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"id":           knownvalue.StringExact(sandbox.ImageKubernetesID),
				"name":         knownvalue.StringExact("ubuntu-24.04-kubernetes-v1.31.0-amd64"),
				"architecture": knownvalue.StringExact("x86_64"),
				"gpu":          knownvalue.Null(),
				"software_versions": knownvalue.MapExact(map[string]knownvalue.Check{
					"kubernetes": knownvalue.StringExact(sandbox.KubernetesVersion),
				}),
			})),
		),
	}))
}

// TestAccImages_snapshots finds a snapshot still being created by the instance it
// was taken of, which needs both the status and the instance_id filters: by
// default only ready images are listed.
func TestAccImages_snapshots(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	ctx := context.Background()

	server, err := env.Client.CreateServer(ctx, unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: "snapshot-source"},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			NetworkID:  sandbox.NetworkDefaultID,
		},
	})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		current, err := env.Client.GetServer(ctx, server.Metadata.ID)

		return err == nil && current.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned
	}, 10*time.Second, 20*time.Millisecond)

	// The snapshot must stay in progress for the whole test.
	env.UpdateSettings(t, sandbox.Settings{ProvisionDelay: "1h"})

	const instanceID = "f0000000-0000-4000-8000-000000000001"

	snapshot, err := env.Client.SnapshotServer(ctx, server.Metadata.ID, unikorn.SnapshotCreate{
		Metadata: unikorn.WriteMetadata{
			Name: "web-snapshot",
			Tags: unikorn.Tags{{Name: compute.SnapshotInstanceIDTag, Value: instanceID}},
		},
	})
	require.NoError(t, err)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: regionConfig(env, fmt.Sprintf(`
data "unikorn_images" "ready_only" {
  region_id   = local.region_id
  instance_id = %[1]s
}

data "unikorn_images" "in_progress" {
  region_id   = local.region_id
  instance_id = %[1]s
  status      = ["pending", "creating"]
}

data "unikorn_images" "other_instance" {
  region_id   = local.region_id
  instance_id = "f0000000-0000-4000-8000-000000000002"
  status      = ["pending", "creating", "ready", "failed"]
}

data "unikorn_images" "every_state" {
  region_id = local.region_id
  status    = ["pending", "creating", "ready", "failed"]
}
`, acctest.Quote(instanceID))),
		ConfigStateChecks: []statecheck.StateCheck{
			namesAre("data.unikorn_images.ready_only", "images"),
			namesAre("data.unikorn_images.other_instance", "images"),
			namesAre("data.unikorn_images.every_state", "images",
				"debian-12-amd64", "ubuntu-24.04-amd64", "ubuntu-24.04-arm64", "ubuntu-24.04-gpu-amd64",
				"ubuntu-24.04-kubernetes-v1.30.4-amd64", "ubuntu-24.04-kubernetes-v1.31.0-amd64", "ubuntu-24.04-kubernetes-v1.31.0-arm64",
				"ubuntu-24.04-metal", "web-snapshot"),
			statecheck.ExpectKnownValue("data.unikorn_images.in_progress", tfjsonpath.New("images"),
				knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":     knownvalue.StringExact(snapshot.Metadata.ID),
					"status": knownvalue.StringRegexp(regexp.MustCompile(`^(pending|creating)$`)),
					"tags": knownvalue.MapPartial(map[string]knownvalue.Check{
						compute.SnapshotInstanceIDTag:     knownvalue.StringExact(instanceID),
						"images.unikorn-cloud.org:source": knownvalue.StringExact("snapshot"),
					}),
				})})),
		},
	}))
}

// TestAccImages_byName finds the environment's image by its name; it runs against a
// real Unikorn too.
func TestAccImages_byName(t *testing.T) {
	env := acctest.New(t)

	image, err := env.Client.GetImage(context.Background(), env.Settings.OrganizationID, env.RegionID, env.ImageID)
	require.NoError(t, err)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProviderConfig() + `
data "unikorn_images" "this" {
  region_id = ` + acctest.Quote(env.RegionID) + `
  name      = ` + acctest.Quote(image.Metadata.Name) + `
}
`,
		// Names are not unique, so other images may share it.
		Check: resource.TestCheckTypeSetElemNestedAttrs("data.unikorn_images.this", "images.*",
			map[string]string{"id": env.ImageID, "name": image.Metadata.Name}),
	}))
}

func TestAccImages_invalidFilters(t *testing.T) {
	testRefusals(t, "unikorn_images",
		refusal{"any", `architecture = "arm64"`, `(?s)Invalid Attribute Value Match.*architecture.*"aarch64"`},
		refusal{"any", `status = ["ready", "active"]`, `(?s)Invalid Attribute Value Match.*status.*"failed"`},
	)
}
