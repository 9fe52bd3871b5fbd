package sandbox

import (
	"net/http"
	"net/url"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (h *harness) listServers(query url.Values) []unikorn.Server {
	h.t.Helper()

	var servers []unikorn.Server

	h.call(http.MethodGet, "/api/v2/servers?"+query.Encode(), nil).expect(http.StatusOK, &servers)

	return servers
}

func serverNames(servers []unikorn.Server) []string {
	names := []string{}
	for _, server := range servers {
		names = append(names, server.Metadata.Name)
	}

	sort.Strings(names)

	return names
}

func TestTagFiltersAreANDed(t *testing.T) {
	h := newHarness(t)

	for name, tags := range map[string]unikorn.Tags{
		"cat-dog": {{Name: "foo", Value: "cat"}, {Name: "bar", Value: "dog"}},
		"cat":     {{Name: "foo", Value: "cat"}},
		"dog":     {{Name: "bar", Value: "dog"}},
		"eq":      {{Name: "expr", Value: "a=b"}},
	} {
		body := serverCreate(name)
		body.Metadata.Tags = tags
		h.createServer(body)
	}

	assert.Equal(t, []string{"cat", "cat-dog"}, serverNames(h.listServers(url.Values{"tag": {"foo=cat"}})))
	assert.Equal(t, []string{"cat-dog"}, serverNames(h.listServers(url.Values{"tag": {"foo=cat", "bar=dog"}})))
	assert.Empty(t, h.listServers(url.Values{"tag": {"foo=dog"}}))
	assert.Empty(t, h.listServers(url.Values{"tag": {"foo="}}))

	for _, selector := range []string{"foo", "expr=a=b"} {
		body := h.call(http.MethodGet, "/api/v2/servers?"+url.Values{"tag": {selector}}.Encode(), nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		assert.Equal(t, "tag decode failed", body.ErrorDescription)
	}
}

func TestScopeFiltersAreORedWithinAndANDedAcross(t *testing.T) {
	h := newHarness(t)

	h.createServer(serverCreate("default-1"))

	secondary := serverCreate("secondary-1")
	secondary.Spec.NetworkID = NetworkSecondaryID
	h.createServer(secondary)

	other := serverCreate("other-1")
	other.Spec.NetworkID = NetworkOtherID
	h.createServer(other)

	all := h.listServers(nil)
	assert.Equal(t, []string{"default-1", "other-1", "secondary-1"}, serverNames(all))

	ids := []string{}
	for _, server := range all {
		ids = append(ids, server.Metadata.ID)
	}

	assert.IsIncreasing(t, ids, "lists are sorted by ID")

	assert.Equal(t, []string{"default-1", "secondary-1"}, serverNames(h.listServers(url.Values{"projectID": {ProjectID}})))
	assert.Equal(t, []string{"default-1", "other-1"}, serverNames(h.listServers(url.Values{"networkID": {NetworkDefaultID, NetworkOtherID}})))
	assert.Equal(t, []string{"default-1"}, serverNames(h.listServers(url.Values{"networkID": {NetworkDefaultID, NetworkOtherID}, "projectID": {ProjectID}})))
	assert.Len(t, h.listServers(url.Values{"regionID": {RegionID}, "organizationID": {OrganizationID}}), 3)
	assert.Empty(t, h.listServers(url.Values{"regionID": {"b0000000-0000-4000-8000-0000000000ff"}}))

	// An organization the caller is not in is ignored; with none left the body is null.
	assert.Len(t, h.listServers(url.Values{"organizationID": {OrganizationID, "a0000000-0000-4000-8000-0000000000ff"}}), 3)

	resp := h.call(http.MethodGet, "/api/v2/servers?organizationID=a0000000-0000-4000-8000-0000000000ff", nil).expect(http.StatusOK, nil)
	assert.JSONEq(t, "null", string(resp.body))
}

func TestEmptyListIsAnArrayAndTagsAreOmittedWhenEmpty(t *testing.T) {
	h := newHarness(t)

	resp := h.call(http.MethodGet, "/api/v2/servers", nil).expect(http.StatusOK, nil)
	assert.JSONEq(t, "[]", string(resp.body))

	h.createServer(serverCreate("untagged"))

	resp = h.call(http.MethodGet, "/api/v2/servers", nil).expect(http.StatusOK, nil)
	assert.NotContains(t, string(resp.body), `"tags"`)
	assert.NotContains(t, string(resp.body), `"networking"`)
}

func TestEveryV2ListFilters(t *testing.T) {
	h := newHarness(t)

	var networks []unikorn.Network

	h.call(http.MethodGet, "/api/v2/networks?projectID="+OtherProjectID, nil).expect(http.StatusOK, &networks)
	require.Len(t, networks, 1)
	assert.Equal(t, NetworkOtherID, networks[0].Metadata.ID)

	var groups []unikorn.SecurityGroup

	h.call(http.MethodGet, "/api/v2/securitygroups?networkID="+NetworkDefaultID, nil).expect(http.StatusOK, &groups)
	require.Len(t, groups, 2)
	assert.Equal(t, SecurityGroupAllowSSHID, groups[0].Metadata.ID)
	assert.Equal(t, SecurityGroupAllowWebID, groups[1].Metadata.ID)

	var cas []unikorn.SSHCertificateAuthority

	h.call(http.MethodGet, "/api/v2/sshcertificateauthorities?projectID="+ProjectID, nil).expect(http.StatusOK, &cas)
	require.Len(t, cas, 1)
	assert.Equal(t, SSHCAID, cas[0].Metadata.ID)

	h.call(http.MethodGet, "/api/v2/securitygroups?tag=bad", nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}
