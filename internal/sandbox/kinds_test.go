package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Read lag is kept per kind of the store: every kind a family registers lags, and what
// is no object (an organization's quotas) is no kind.
func TestReadLagCoversEveryObjectKind(t *testing.T) {
	sb, err := New(DefaultOptions())
	require.NoError(t, err)

	t.Cleanup(func() { require.NoError(t, sb.Close()) })

	kinds := sb.core.Store().KindNames()

	for _, kind := range []string{"networks", "securityGroups", "sshCertificateAuthorities", "servers", "loadBalancers", "images", "allocations"} {
		assert.Contains(t, kinds, kind)
	}

	assert.NotContains(t, kinds, "quotas", "quotas are per organization, not objects")
}
