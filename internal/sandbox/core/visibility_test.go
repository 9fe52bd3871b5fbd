package core_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// networkIDsAs lists the network IDs a token sees at path.
func networkIDsAs(h *sandboxtest.Harness, token, path string) []string {
	h.T.Helper()

	return sandboxtest.Listed(h, token, path, func(network unikorn.Network) string { return network.Metadata.ID })
}

func TestForeignTokenSeesNothingAndIsForbiddenNotToldGone(t *testing.T) {
	h := sandboxtest.New(t)
	server := h.CreateReadyServer("ours")

	assert.Empty(t, networkIDsAs(h, sandbox.ForeignToken, "/api/v2/networks"), "an organization-wide list drops other organizations")
	assert.Empty(t, networkIDsAs(h, sandbox.ForeignToken, "/api/v2/networks?organizationID="+sandbox.OrganizationID))
	assert.Empty(t, networkIDsAs(h, sandbox.ForeignToken, "/api/v2/networks?projectID="+sandbox.ProjectID))

	// Lost access is 403 on a direct read, so that it cannot be mistaken for gone.
	h.CallAs(sandbox.ForeignToken, http.MethodGet, "/api/v2/servers/"+server.Metadata.ID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.ForeignToken, http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.ForeignToken, http.MethodGet, "/api/v2/networks/f0000000-0000-4000-8000-000000000000", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	var organizations []unikorn.Organization

	h.CallAs(sandbox.ForeignToken, http.MethodGet, "/api/v1/organizations", nil).Expect(http.StatusOK, &organizations)
	require.Len(t, organizations, 1)
	assert.Equal(t, sandbox.ForeignOrganizationID, organizations[0].Metadata.ID)

	h.CallAs(sandbox.DefaultToken, http.MethodGet, "/api/v1/organizations", nil).Expect(http.StatusOK, &organizations)
	require.Len(t, organizations, 1, "the fixture user does not see the foreign organization")
	assert.Equal(t, sandbox.OrganizationID, organizations[0].Metadata.ID)
}

func TestVisibilityOffListsWhatTheTokenMayNotRead(t *testing.T) {
	h := sandboxtest.New(t, func(o *sandbox.Options) { o.ShowInvisible = true })

	assert.Contains(t, networkIDsAs(h, sandbox.ForeignToken, "/api/v2/networks"), sandbox.NetworkDefaultID)

	// A direct read is still refused: the switch flatters lists only.
	h.CallAs(sandbox.ForeignToken, http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	show := false
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ShowInvisible: &show}))
	assert.Empty(t, networkIDsAs(h, sandbox.ForeignToken, "/api/v2/networks"))
}

func TestVisibilityKeepsTheCallersOwnProjects(t *testing.T) {
	h := sandboxtest.New(t)

	ids := networkIDsAs(h, sandbox.DefaultToken, "/api/v2/networks")
	assert.Contains(t, ids, sandbox.NetworkDefaultID)
	assert.Contains(t, ids, sandbox.NetworkOtherID, "both projects of the fixture user")
}
