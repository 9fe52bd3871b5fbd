package core_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// createSSHCA creates an SSH certificate authority, which settles at once: its only
// change is the create itself, so its lag is the create's alone.
func createSSHCA(h *sandboxtest.Harness, name string) string {
	h.T.Helper()

	var ca unikorn.SSHCertificateAuthority

	h.Call(http.MethodPost, "/api/v2/sshcertificateauthorities", sshCACreate(h.T, name)).Expect(http.StatusCreated, &ca)

	return ca.Metadata.ID
}

// sshCACreate is a valid request for an SSH certificate authority of a fresh key in
// the fixture project.
func sshCACreate(t *testing.T, name string) unikorn.SSHCertificateAuthorityCreate {
	t.Helper()

	public, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)

	key, err := ssh.NewPublicKey(public)
	require.NoError(t, err)

	return unikorn.SSHCertificateAuthorityCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.SSHCertificateAuthorityCreateSpec{
			SSHCertificateAuthoritySpec: unikorn.SSHCertificateAuthoritySpec{PublicKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))},
			OrganizationID:              sandbox.OrganizationID,
			ProjectID:                   sandbox.ProjectID,
		},
	}
}

// listedSSHCAs returns the IDs the SSH certificate authority list shows.
func listedSSHCAs(h *sandboxtest.Harness) []string {
	h.T.Helper()

	return sandboxtest.Listed(h, sandbox.DefaultToken, "/api/v2/sshcertificateauthorities", func(ca unikorn.SSHCertificateAuthority) string { return ca.Metadata.ID })
}

func TestReadLagHidesANewObjectThenConverges(t *testing.T) {
	h := sandboxtest.New(t, sandboxtest.WithReadLag(1))

	id := createSSHCA(h, "lagging")

	assert.NotContains(t, listedSSHCAs(h), id, "the list is served from a cache that has not seen the create")
	h.Call(http.MethodGet, "/api/v2/sshcertificateauthorities/"+id, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Clock.Advance(sandboxtest.ReadLag)

	assert.Contains(t, listedSSHCAs(h), id, "after the lag window reads are exact")
	h.Call(http.MethodGet, "/api/v2/sshcertificateauthorities/"+id, nil).Expect(http.StatusOK, nil)
}

func TestReadLagIsPerObjectAndDeterministicWithASeed(t *testing.T) {
	// visibleOverTime creates objects at once and samples which of them the list
	// shows as time passes.
	visibleOverTime := func(seed uint64) []int {
		h := sandboxtest.New(t, sandboxtest.WithReadLag(seed))

		ids := make([]string, 5)
		for i := range ids {
			ids[i] = createSSHCA(h, "ca-"+string(rune('a'+i)))
		}

		var counts []int

		for range 21 {
			listed, visible := listedSSHCAs(h), 0

			for _, id := range ids {
				if slices.Contains(listed, id) {
					visible++
				}
			}

			counts = append(counts, visible)
			h.Clock.Advance(sandboxtest.ReadLag / 20)
		}

		return counts
	}

	first := visibleOverTime(7)
	assert.Equal(t, first, visibleOverTime(7), "the same seed gives the same lags")
	assert.Equal(t, 5, first[len(first)-1], "every object is listed once the window has passed")
	assert.True(t, slices.ContainsFunc(first, func(n int) bool { return n > 0 && n < 5 }),
		"each write lags for its own time, so objects appear one by one: %v", first)
}

func TestReadLagShowsThePreviousVersion(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("app")
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: sandboxtest.ReadLag.String()}))

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "app", Description: "updated"},
		Spec:     server.Spec,
	}

	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)

	stale := h.GetServer(server.Metadata.ID)
	assert.Empty(t, stale.Metadata.Description, "a GET right after the update shows the previous version")
	assert.Equal(t, unikorn.ProvisioningProvisioned, stale.Metadata.ProvisioningStatus)

	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)

	// Settle the reprovisioning, then wait out the lag of the transition that settled it.
	h.Clock.Advance(sandboxtest.Settle)
	h.GetServer(server.Metadata.ID)
	h.Clock.Advance(sandboxtest.ReadLag)

	current := h.GetServer(server.Metadata.ID)
	assert.Equal(t, "updated", current.Metadata.Description)
	assert.Equal(t, unikorn.ProvisioningProvisioned, current.Metadata.ProvisioningStatus)
}

// The cache trails each write by at most the read lag, however often the object
// changes meanwhile: a version is never hidden longer than that.
func TestReadLagNeverTrailsLongerThanTheLag(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("app")
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: sandboxtest.ReadLag.String()}))

	update := unikorn.ServerUpdate{Metadata: unikorn.WriteMetadata{Name: "app"}, Spec: server.Spec}

	// A change every tenth of the lag, each starting a lag of its own.
	for i := range 10 {
		update.Metadata.Description = fmt.Sprintf("update %d", i)
		h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)
		h.Clock.Advance(sandboxtest.ReadLag / 10)
	}

	update.Metadata.Description = "last"
	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)

	assert.NotEqual(t, "", h.GetServer(server.Metadata.ID).Metadata.Description,
		"a read one lag after the first change shows it or a later one")
}

func TestReadLagKeepsADeletedObjectListed(t *testing.T) {
	h := sandboxtest.New(t)

	id := createSSHCA(h, "doomed")
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: sandboxtest.ReadLag.String()}))

	h.Call(http.MethodDelete, "/api/v2/sshcertificateauthorities/"+id, nil).Expect(http.StatusAccepted, nil)

	assert.Contains(t, listedSSHCAs(h), id, "the cache still has the deleted object")
	h.Call(http.MethodGet, "/api/v2/sshcertificateauthorities/"+id, nil).Expect(http.StatusOK, nil)

	// Writes act on the latest version, not on the cache.
	h.Call(http.MethodDelete, "/api/v2/sshcertificateauthorities/"+id, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Clock.Advance(sandboxtest.ReadLag)
	assert.NotContains(t, listedSSHCAs(h), id)
}

func TestReadLagOffReadsExactly(t *testing.T) {
	h := sandboxtest.New(t)

	id := createSSHCA(h, "exact")
	assert.Contains(t, listedSSHCAs(h), id)
}

func TestReadLagCoversChangesTheCloudMakes(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("fragile")
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: sandboxtest.ReadLag.String()}))
	require.NoError(t, h.Sandbox.FailServer(server.Metadata.ID))

	assert.Equal(t, unikorn.ProvisioningProvisioned, h.GetServer(server.Metadata.ID).Metadata.ProvisioningStatus, "the cache has not seen the failure")

	h.Clock.Advance(sandboxtest.ReadLag)
	assert.Equal(t, unikorn.ProvisioningError, h.GetServer(server.Metadata.ID).Metadata.ProvisioningStatus)
}

// A transition falls due between requests and the first request that comes applies
// it. The cache trails it as it trails a write, from when it fell due, so that request
// sees no more than the next one: a cache never shows a version and then an older one.
func TestReadLagTrailsATransitionFromWhenItFellDue(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateServer(sandboxtest.ServerCreate("app"))
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: "1h"}))
	h.Clock.Advance(sandboxtest.Settle)

	first := h.GetServer(server.Metadata.ID)
	second := h.GetServer(server.Metadata.ID)

	assert.Equal(t, first.Metadata.ProvisioningStatus, second.Metadata.ProvisioningStatus, "two reads at one instant agree")
	assert.NotEqual(t, unikorn.ProvisioningProvisioned, first.Metadata.ProvisioningStatus,
		"the provisioning that fell due is hidden while the lag since then lasts")

	// The cloud acts when a transition falls due, asked or not: a read that comes
	// once the lag has passed since then sees it at once, not a lag after the read.
	require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{ReadLag: sandboxtest.ReadLag.String()}))
	quiet := h.CreateServer(sandboxtest.ServerCreate("quiet"))
	h.Clock.Advance(time.Hour)

	assert.Equal(t, unikorn.ProvisioningProvisioned, h.GetServer(quiet.Metadata.ID).Metadata.ProvisioningStatus,
		"provisioned an hour ago, shown by the first read since")
}

// Identity keeps a user as two objects, the organization's user and the global one
// behind it, which its cache sees each in its own time: a list that has the first but
// not yet the second fails with a consistency error (identity's convertList), never
// shows a user without its subject.
func TestReadLagNeverListsAUserWithoutItsSubject(t *testing.T) {
	h := sandboxtest.New(t, sandboxtest.WithReadLag(3))

	for i := range 5 {
		write := unikorn.UserWrite{Spec: unikorn.UserSpec{Subject: fmt.Sprintf("lagging-%d@example.com", i), State: unikorn.UserActive, GroupIDs: []string{}}}
		h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/users"), write).Expect(http.StatusCreated, nil)
	}

	inconsistent := 0

	for range 21 {
		if r := h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/users"), nil); r.Status != http.StatusOK {
			r.ExpectError(http.StatusInternalServerError, unikorn.ErrorServerError)

			inconsistent++
		} else {
			var users []unikorn.User

			r.Expect(http.StatusOK, &users)

			for _, user := range users {
				assert.NotEmpty(t, user.Spec.Subject, "a listed user has its subject")
			}
		}

		h.Clock.Advance(sandboxtest.ReadLag / 20)
	}

	assert.Positive(t, inconsistent, "the cache saw an organization's user before its global user")
}
