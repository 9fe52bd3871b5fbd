package acctest

import (
	"os"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	sandboxvolumes "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/volumes"
)

// EnvVolumeClassID names a volume class of UNIKORN_ACC_REGION_ID that supports
// UNIKORN_ACC_FLAVOR_ID, which the volume tests make volumes of against a real Unikorn.
const EnvVolumeClassID = "UNIKORN_ACC_VOLUME_CLASS_ID"

// VolumeClassID is a volume class of the environment's region whose volumes instances
// of its flavor may attach: the sandbox's standard class, or the one EnvVolumeClassID
// names; without it the test skips.
func (e *Environment) VolumeClassID(t *testing.T) string {
	t.Helper()

	if e.IsSandbox() {
		return sandbox.VolumeClassStandardID
	}

	id := os.Getenv(EnvVolumeClassID)
	if id == "" {
		t.Skipf("block volumes against a real Unikorn need %s to name a volume class of the region", EnvVolumeClassID)
	}

	return id
}

// Volumes are the IDs of the volumes the sandbox holds, as it holds them rather than
// as a lagging list shows them: what a check that nothing was made, or nothing left
// behind, compares.
func (e *Environment) Volumes(t *testing.T) []string {
	t.Helper()

	var ids []string

	for _, object := range e.LeftBehind(t) {
		if object.Kind == sandboxvolumes.ObjectKind {
			ids = append(ids, object.ID)
		}
	}

	return ids
}
