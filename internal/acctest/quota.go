package acctest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FreeQuota is how much of the quota of kind (networks, publicips, …) the environment's
// organization has free: what a test fills to see a create refused.
func (e *Environment) FreeQuota(t *testing.T, kind string) int {
	t.Helper()

	quotas, err := e.Client.GetQuotas(t.Context(), e.Settings.OrganizationID)
	require.NoError(t, err)

	for _, quota := range quotas.Quotas {
		if quota.Kind == kind {
			return quota.Free
		}
	}

	t.Fatalf("organization %s has no %s quota", e.Settings.OrganizationID, kind)

	return 0
}
