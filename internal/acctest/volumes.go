package acctest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// EnvVolumeClassID names a volume class of UNIKORN_ACC_REGION_ID that supports
// UNIKORN_ACC_FLAVOR_ID, which the volume tests make volumes of against a real Unikorn.
const EnvVolumeClassID = "UNIKORN_ACC_VOLUME_CLASS_ID"

// VolumeClassID is a volume class of the environment's region whose volumes instances
// of its flavor may attach: the sandbox's standard class, or the one EnvVolumeClassID
// names; without it the test skips.
func (e *Environment) VolumeClassID(t *testing.T) string {
	t.Helper()

	return e.fixtureOr(t, sandbox.VolumeClassStandardID, EnvVolumeClassID, "block volumes against a real Unikorn")
}

// Volumes returns every volume the sandbox holds, as it holds it rather than as a
// lagging read shows it: what a check that nothing was made, or nothing left behind,
// or what a volume is now, compares.
func (e *Environment) Volumes(t *testing.T) []unikorn.Volume {
	t.Helper()
	e.SkipUnlessSandbox(t)

	all, err := e.control.Volumes(context.Background())
	require.NoError(t, err)

	return all
}

// WriteVolumeFile writes a file to a volume as the guest of the server it is attached
// to would: what shows that the data outlives that server.
func (e *Environment) WriteVolumeFile(t *testing.T, id, path, contents string) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.WriteVolumeFile(context.Background(), id, sandbox.VolumeFile{Path: path, Contents: contents}))
}

// VolumeFiles returns the files guests wrote to a volume, by path.
func (e *Environment) VolumeFiles(t *testing.T, id string) map[string]string {
	t.Helper()
	e.SkipUnlessSandbox(t)

	files, err := e.control.VolumeFiles(context.Background(), id)
	require.NoError(t, err)

	return files
}
