package sandbox

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

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const testReadLag = 2 * time.Second

func withReadLag(seed uint64) func(*Options) {
	return func(o *Options) {
		o.ReadLag = testReadLag
		o.Seed = seed
	}
}

// createSSHCA creates an SSH certificate authority, which settles at once: its only
// change is the create itself, so its lag is the create's alone.
func (h *harness) createSSHCA(name string) string {
	h.t.Helper()

	public, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(h.t, err)

	key, err := ssh.NewPublicKey(public)
	require.NoError(h.t, err)

	var ca unikorn.SSHCertificateAuthority

	h.call(http.MethodPost, "/api/v2/sshcertificateauthorities", unikorn.SSHCertificateAuthorityCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.SSHCertificateAuthorityCreateSpec{
			SSHCertificateAuthoritySpec: unikorn.SSHCertificateAuthoritySpec{PublicKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))},
			OrganizationID:              OrganizationID,
			ProjectID:                   ProjectID,
		},
	}).expect(http.StatusCreated, &ca)

	return ca.Metadata.ID
}

// listed lists path as token and returns what key picks out of each item.
func listed[T any](h *harness, token, path string, key func(T) string) []string {
	h.t.Helper()

	var items []T

	h.callAs(token, http.MethodGet, path, nil).expect(http.StatusOK, &items)

	keys := make([]string, 0, len(items))
	for _, item := range items {
		keys = append(keys, key(item))
	}

	return keys
}

// listedSSHCAs returns the IDs the SSH certificate authority list shows.
func (h *harness) listedSSHCAs() []string {
	h.t.Helper()

	return listed(h, DefaultToken, "/api/v2/sshcertificateauthorities", func(ca unikorn.SSHCertificateAuthority) string { return ca.Metadata.ID })
}

func TestReadLagHidesANewObjectThenConverges(t *testing.T) {
	h := newHarness(t, withReadLag(1))

	id := h.createSSHCA("lagging")

	assert.NotContains(t, h.listedSSHCAs(), id, "the list is served from a cache that has not seen the create")
	h.call(http.MethodGet, "/api/v2/sshcertificateauthorities/"+id, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.clock.Advance(testReadLag)

	assert.Contains(t, h.listedSSHCAs(), id, "after the lag window reads are exact")
	h.call(http.MethodGet, "/api/v2/sshcertificateauthorities/"+id, nil).expect(http.StatusOK, nil)
}

func TestReadLagIsPerObjectAndDeterministicWithASeed(t *testing.T) {
	// visibleOverTime creates objects at once and samples which of them the list
	// shows as time passes.
	visibleOverTime := func(seed uint64) []int {
		h := newHarness(t, withReadLag(seed))

		ids := make([]string, 5)
		for i := range ids {
			ids[i] = h.createSSHCA("ca-" + string(rune('a'+i)))
		}

		var counts []int

		for range 21 {
			listed, visible := h.listedSSHCAs(), 0

			for _, id := range ids {
				if slices.Contains(listed, id) {
					visible++
				}
			}

			counts = append(counts, visible)
			h.clock.Advance(testReadLag / 20)
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
	h := newHarness(t)

	server := h.createReadyServer("app")
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: testReadLag.String()}))

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "app", Description: "updated"},
		Spec:     server.Spec,
	}

	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)

	stale := h.getServer(server.Metadata.ID)
	assert.Empty(t, stale.Metadata.Description, "a GET right after the update shows the previous version")
	assert.Equal(t, unikorn.ProvisioningProvisioned, stale.Metadata.ProvisioningStatus)

	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)

	// Settle the reprovisioning, then wait out the lag of the transition that settled it.
	h.clock.Advance(settle)
	h.getServer(server.Metadata.ID)
	h.clock.Advance(testReadLag)

	current := h.getServer(server.Metadata.ID)
	assert.Equal(t, "updated", current.Metadata.Description)
	assert.Equal(t, unikorn.ProvisioningProvisioned, current.Metadata.ProvisioningStatus)
}

// The cache trails each write by at most the read lag, however often the object
// changes meanwhile: a version is never hidden longer than that.
func TestReadLagNeverTrailsLongerThanTheLag(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("app")
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: testReadLag.String()}))

	update := unikorn.ServerUpdate{Metadata: unikorn.WriteMetadata{Name: "app"}, Spec: server.Spec}

	// A change every tenth of the lag, each starting a lag of its own.
	for i := range 10 {
		update.Metadata.Description = fmt.Sprintf("update %d", i)
		h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)
		h.clock.Advance(testReadLag / 10)
	}

	update.Metadata.Description = "last"
	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)

	assert.NotEqual(t, "", h.getServer(server.Metadata.ID).Metadata.Description,
		"a read one lag after the first change shows it or a later one")
}

func TestReadLagKeepsADeletedObjectListed(t *testing.T) {
	h := newHarness(t)

	id := h.createSSHCA("doomed")
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: testReadLag.String()}))

	h.call(http.MethodDelete, "/api/v2/sshcertificateauthorities/"+id, nil).expect(http.StatusAccepted, nil)

	assert.Contains(t, h.listedSSHCAs(), id, "the cache still has the deleted object")
	h.call(http.MethodGet, "/api/v2/sshcertificateauthorities/"+id, nil).expect(http.StatusOK, nil)

	// Writes act on the latest version, not on the cache.
	h.call(http.MethodDelete, "/api/v2/sshcertificateauthorities/"+id, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.clock.Advance(testReadLag)
	assert.NotContains(t, h.listedSSHCAs(), id)
}

func TestReadLagCoversEveryObjectKind(t *testing.T) {
	h := newHarness(t)
	kinds := h.sb.core.Store().KindNames()

	for _, kind := range []string{"networks", "securityGroups", "sshCertificateAuthorities", "servers", "loadBalancers", "images", "allocations"} {
		assert.Contains(t, kinds, kind)
	}

	assert.NotContains(t, kinds, "quotas", "quotas are per organization, not objects")
}

func TestReadLagOffReadsExactly(t *testing.T) {
	h := newHarness(t)

	id := h.createSSHCA("exact")
	assert.Contains(t, h.listedSSHCAs(), id)
}

func TestReadLagCoversChangesTheCloudMakes(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("fragile")
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: testReadLag.String()}))
	require.NoError(t, h.sb.FailServer(server.Metadata.ID))

	assert.Equal(t, unikorn.ProvisioningProvisioned, h.getServer(server.Metadata.ID).Metadata.ProvisioningStatus, "the cache has not seen the failure")

	h.clock.Advance(testReadLag)
	assert.Equal(t, unikorn.ProvisioningError, h.getServer(server.Metadata.ID).Metadata.ProvisioningStatus)
}

// A transition falls due between requests and the first request that comes applies
// it. The cache trails it as it trails a write, from when it fell due, so that request
// sees no more than the next one: a cache never shows a version and then an older one.
func TestReadLagTrailsATransitionFromWhenItFellDue(t *testing.T) {
	h := newHarness(t)

	server := h.createServer(serverCreate("app"))
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: "1h"}))
	h.clock.Advance(settle)

	first := h.getServer(server.Metadata.ID)
	second := h.getServer(server.Metadata.ID)

	assert.Equal(t, first.Metadata.ProvisioningStatus, second.Metadata.ProvisioningStatus, "two reads at one instant agree")
	assert.NotEqual(t, unikorn.ProvisioningProvisioned, first.Metadata.ProvisioningStatus,
		"the provisioning that fell due is hidden while the lag since then lasts")

	// The cloud acts when a transition falls due, asked or not: a read that comes
	// once the lag has passed since then sees it at once, not a lag after the read.
	require.NoError(t, h.sb.UpdateSettings(Settings{ReadLag: testReadLag.String()}))
	quiet := h.createServer(serverCreate("quiet"))
	h.clock.Advance(time.Hour)

	assert.Equal(t, unikorn.ProvisioningProvisioned, h.getServer(quiet.Metadata.ID).Metadata.ProvisioningStatus,
		"provisioned an hour ago, shown by the first read since")
}

// Identity keeps a user as two objects, the organization's user and the global one
// behind it, which its cache sees each in its own time: a list that has the first but
// not yet the second fails with a consistency error (identity's convertList), never
// shows a user without its subject.
func TestReadLagNeverListsAUserWithoutItsSubject(t *testing.T) {
	h := newHarness(t, withReadLag(3))

	for i := range 5 {
		write := userWrite{Spec: userSpec{Subject: fmt.Sprintf("lagging-%d@example.com", i), State: userActive, GroupIDs: []string{}}}
		h.callAs(AdminToken, http.MethodPost, organizationPath("/users"), write).expect(http.StatusCreated, nil)
	}

	inconsistent := 0

	for range 21 {
		if r := h.callAs(AdminToken, http.MethodGet, organizationPath("/users"), nil); r.status != http.StatusOK {
			r.expectError(http.StatusInternalServerError, unikorn.ErrorServerError)

			inconsistent++
		} else {
			var users []userRead

			r.expect(http.StatusOK, &users)

			for _, user := range users {
				assert.NotEmpty(t, user.Spec.Subject, "a listed user has its subject")
			}
		}

		h.clock.Advance(testReadLag / 20)
	}

	assert.Positive(t, inconsistent, "the cache saw an organization's user before its global user")
}
