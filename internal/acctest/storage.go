package acctest

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// EnvStorageClassID names a file storage class of UNIKORN_ACC_REGION_ID, which the file
// storage tests make storage of against a real Unikorn.
const EnvStorageClassID = "UNIKORN_ACC_STORAGE_CLASS_ID"

// StorageClassID is a file storage class of the environment's region: the sandbox's
// standard NFS class, or the one EnvStorageClassID names; without it the test skips.
func (e *Environment) StorageClassID(t *testing.T) string {
	t.Helper()

	return e.fixtureOr(t, sandbox.StorageClassStandardID, EnvStorageClassID, "file storage against a real Unikorn")
}

// fixtureOr is the sandbox's fixture of ID id, or against a real Unikorn the ID the
// environment variable name holds; without it the test, which needs it for what,
// skips.
func (e *Environment) fixtureOr(t *testing.T, id, name, what string) string {
	t.Helper()

	if e.IsSandbox() {
		return id
	}

	value := os.Getenv(name)
	if value == "" {
		t.Skipf("%s needs %s to name one", what, name)
	}

	return value
}

// FileStorage returns every file storage the sandbox holds, as it is rather than as a
// lagging list shows it: what a check that nothing was left behind needs.
func (e *Environment) FileStorage(t *testing.T) []unikorn.FileStorage {
	t.Helper()
	e.SkipUnlessSandbox(t)

	all, err := e.control.FileStorage(context.Background())
	require.NoError(t, err)

	return all
}

// SetFileStorageUsage makes the storage back end report usedBytes in use on a share,
// as data written through its mounts would.
func (e *Environment) SetFileStorageUsage(t *testing.T, id string, usedBytes int64) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.SetFileStorageUsage(context.Background(), id, sandbox.FileStorageUsage{UsedBytes: usedBytes}))
}
