package volumes_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const volumeAddress = "unikorn_volume.this"

// idOf is the ID of the resource at address in state s.
func idOf(s *terraform.State, address string) string {
	return s.RootModule().Resources[address].Primary.ID
}

// volume is the volume under test, unikorn_volume.this, on the environment's network
// unless Network (an HCL expression) says otherwise.
type volume struct {
	Name, Description string
	Network           string
	ClassID           string
	SizeGiB           int
	// Tags are written as they are, an HCL map; empty leaves them out.
	Tags string
}

func newVolume(t *testing.T, env *acctest.Environment) volume {
	t.Helper()

	return volume{Name: "data", Network: acctest.Quote(env.NetworkID), ClassID: env.VolumeClassID(t), SizeGiB: 10}
}

func (v volume) String() string {
	var b strings.Builder

	fmt.Fprintf(&b, "resource \"unikorn_volume\" \"this\" {\n  name            = %q\n  network_id      = %s\n"+
		"  volume_class_id = %q\n  size_gib        = %d\n", v.Name, v.Network, v.ClassID, v.SizeGiB)

	if v.Description != "" {
		fmt.Fprintf(&b, "  description     = %q\n", v.Description)
	}

	if v.Tags != "" {
		fmt.Fprintf(&b, "  tags            = %s\n", v.Tags)
	}

	b.WriteString("}\n")

	return b.String()
}

// instanceApp is the instance unikorn_compute_instance.app on network, of flavor and
// image (HCL expressions all), attaching the volumes the expressions name.
func instanceApp(network, flavor, image string, volumes ...string) string {
	return fmt.Sprintf(`
resource "unikorn_compute_instance" "app" {
  name       = "app"
  network_id = %s
  flavor_id  = %s
  image_id   = %s
  volume_ids = [%s]
}
`, network, flavor, image, strings.Join(volumes, ", "))
}

// records is what the sandbox holds of volumes and of quota charges, as it holds them.
type records struct {
	volumes     []string
	allocations []string
}

func recordsOf(t *testing.T, env *acctest.Environment) records {
	t.Helper()

	r := records{volumes: volumeIDs(t, env)}

	for _, allocation := range env.Allocations(t) {
		r.allocations = append(r.allocations, allocation.Metadata.ID)
	}

	slices.Sort(r.volumes)
	slices.Sort(r.allocations)

	return r
}

// volumeIDs are the IDs of the volumes the sandbox holds.
func volumeIDs(t *testing.T, env *acctest.Environment) []string {
	t.Helper()

	var ids []string
	for _, volume := range env.Volumes(t) {
		ids = append(ids, volume.Metadata.ID)
	}

	return ids
}

// volumeRecord is the sandbox's volume of ID id as it is, which must exist.
func volumeRecord(t *testing.T, env *acctest.Environment, id string) *unikorn.Volume {
	t.Helper()

	for _, volume := range env.Volumes(t) {
		if volume.Metadata.ID == id {
			return &volume
		}
	}

	require.Failf(t, "no such volume", "the sandbox holds no volume %s", id)

	return nil
}

// chargedGiB is what the volume's allocation charges to the `volume` quota, 0 for none.
func chargedGiB(t *testing.T, env *acctest.Environment, id string) int {
	t.Helper()

	for _, allocation := range env.Allocations(t) {
		if allocation.Spec.ID == id {
			require.Len(t, allocation.Spec.Allocations, 1)
			require.Equal(t, "volume", allocation.Spec.Allocations[0].Kind)

			return allocation.Spec.Allocations[0].Committed
		}
	}

	return 0
}
