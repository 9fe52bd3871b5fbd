package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// networkIDsAs lists the network IDs a token sees at path.
func (h *harness) networkIDsAs(token, path string) []string {
	h.t.Helper()

	return listed(h, token, path, func(network unikorn.Network) string { return network.Metadata.ID })
}

func TestForeignTokenSeesNothingAndIsForbiddenNotToldGone(t *testing.T) {
	h := newHarness(t)
	server := h.createReadyServer("ours")

	assert.Empty(t, h.networkIDsAs(ForeignToken, "/api/v2/networks"), "an organization-wide list drops other organizations")
	assert.Empty(t, h.networkIDsAs(ForeignToken, "/api/v2/networks?organizationID="+OrganizationID))
	assert.Empty(t, h.networkIDsAs(ForeignToken, "/api/v2/networks?projectID="+ProjectID))

	// Lost access is 403 on a direct read, so that it cannot be mistaken for gone.
	h.callAs(ForeignToken, http.MethodGet, "/api/v2/servers/"+server.Metadata.ID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(ForeignToken, http.MethodGet, "/api/v2/networks/"+NetworkDefaultID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(ForeignToken, http.MethodGet, "/api/v2/networks/f0000000-0000-4000-8000-000000000000", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	var organizations []unikorn.Organization

	h.callAs(ForeignToken, http.MethodGet, "/api/v1/organizations", nil).expect(http.StatusOK, &organizations)
	require.Len(t, organizations, 1)
	assert.Equal(t, ForeignOrganizationID, organizations[0].Metadata.ID)

	h.callAs(DefaultToken, http.MethodGet, "/api/v1/organizations", nil).expect(http.StatusOK, &organizations)
	require.Len(t, organizations, 1, "the fixture user does not see the foreign organization")
	assert.Equal(t, OrganizationID, organizations[0].Metadata.ID)
}

func TestVisibilityOffListsWhatTheTokenMayNotRead(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.ShowInvisible = true })

	assert.Contains(t, h.networkIDsAs(ForeignToken, "/api/v2/networks"), NetworkDefaultID)

	// A direct read is still refused: the switch flatters lists only.
	h.callAs(ForeignToken, http.MethodGet, "/api/v2/networks/"+NetworkDefaultID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	show := false
	require.NoError(t, h.sb.UpdateSettings(Settings{ShowInvisible: &show}))
	assert.Empty(t, h.networkIDsAs(ForeignToken, "/api/v2/networks"))
}

func TestVisibilityKeepsTheCallersOwnProjects(t *testing.T) {
	h := newHarness(t)

	ids := h.networkIDsAs(DefaultToken, "/api/v2/networks")
	assert.Contains(t, ids, NetworkDefaultID)
	assert.Contains(t, ids, NetworkOtherID, "both projects of the fixture user")
}
