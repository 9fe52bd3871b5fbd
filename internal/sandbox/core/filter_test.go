package core_test

import (
	"net/http"
	"net/url"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func listServers(h *sandboxtest.Harness, query url.Values) []unikorn.Server {
	h.T.Helper()

	var servers []unikorn.Server

	h.Call(http.MethodGet, "/api/v2/servers?"+query.Encode(), nil).Expect(http.StatusOK, &servers)

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
	h := sandboxtest.New(t)

	for name, tags := range map[string]unikorn.Tags{
		"cat-dog": {{Name: "foo", Value: "cat"}, {Name: "bar", Value: "dog"}},
		"cat":     {{Name: "foo", Value: "cat"}},
		"dog":     {{Name: "bar", Value: "dog"}},
		"eq":      {{Name: "expr", Value: "a=b"}},
	} {
		body := sandboxtest.ServerCreate(name)
		body.Metadata.Tags = tags
		h.CreateServer(body)
	}

	assert.Equal(t, []string{"cat", "cat-dog"}, serverNames(listServers(h, url.Values{"tag": {"foo=cat"}})))
	assert.Equal(t, []string{"cat-dog"}, serverNames(listServers(h, url.Values{"tag": {"foo=cat", "bar=dog"}})))
	assert.Empty(t, listServers(h, url.Values{"tag": {"foo=dog"}}))
	assert.Empty(t, listServers(h, url.Values{"tag": {"foo="}}))

	for _, selector := range []string{"foo", "expr=a=b"} {
		body := h.Call(http.MethodGet, "/api/v2/servers?"+url.Values{"tag": {selector}}.Encode(), nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		assert.Equal(t, "tag decode failed", body.ErrorDescription)
	}
}

func TestScopeFiltersAreORedWithinAndANDedAcross(t *testing.T) {
	h := sandboxtest.New(t)

	h.CreateServer(sandboxtest.ServerCreate("default-1"))

	secondary := sandboxtest.ServerCreate("secondary-1")
	secondary.Spec.NetworkID = sandbox.NetworkSecondaryID
	h.CreateServer(secondary)

	other := sandboxtest.ServerCreate("other-1")
	other.Spec.NetworkID = sandbox.NetworkOtherID
	h.CreateServer(other)

	all := listServers(h, nil)
	assert.Equal(t, []string{"default-1", "other-1", "secondary-1"}, serverNames(all))

	ids := []string{}
	for _, server := range all {
		ids = append(ids, server.Metadata.ID)
	}

	assert.IsIncreasing(t, ids, "lists are sorted by ID")

	assert.Equal(t, []string{"default-1", "secondary-1"}, serverNames(listServers(h, url.Values{"projectID": {sandbox.ProjectID}})))
	assert.Equal(t, []string{"default-1", "other-1"}, serverNames(listServers(h, url.Values{"networkID": {sandbox.NetworkDefaultID, sandbox.NetworkOtherID}})))
	assert.Equal(t, []string{"default-1"}, serverNames(listServers(h, url.Values{"networkID": {sandbox.NetworkDefaultID, sandbox.NetworkOtherID}, "projectID": {sandbox.ProjectID}})))
	assert.Len(t, listServers(h, url.Values{"regionID": {sandbox.RegionID}, "organizationID": {sandbox.OrganizationID}}), 3)
	assert.Empty(t, listServers(h, url.Values{"regionID": {"b0000000-0000-4000-8000-0000000000ff"}}))

	// An organization the caller is not in is ignored; with none left the body is null.
	assert.Len(t, listServers(h, url.Values{"organizationID": {sandbox.OrganizationID, "a0000000-0000-4000-8000-0000000000ff"}}), 3)

	resp := h.Call(http.MethodGet, "/api/v2/servers?organizationID=a0000000-0000-4000-8000-0000000000ff", nil).Expect(http.StatusOK, nil)
	assert.JSONEq(t, "null", string(resp.Body))
}

func TestEmptyListIsAnArrayAndTagsAreOmittedWhenEmpty(t *testing.T) {
	h := sandboxtest.New(t)

	resp := h.Call(http.MethodGet, "/api/v2/servers", nil).Expect(http.StatusOK, nil)
	assert.JSONEq(t, "[]", string(resp.Body))

	h.CreateServer(sandboxtest.ServerCreate("untagged"))

	resp = h.Call(http.MethodGet, "/api/v2/servers", nil).Expect(http.StatusOK, nil)
	assert.NotContains(t, string(resp.Body), `"tags"`)
	assert.NotContains(t, string(resp.Body), `"networking"`)
}

func TestEveryV2ListFilters(t *testing.T) {
	h := sandboxtest.New(t)

	var networks []unikorn.Network

	h.Call(http.MethodGet, "/api/v2/networks?projectID="+sandbox.OtherProjectID, nil).Expect(http.StatusOK, &networks)
	require.Len(t, networks, 1)
	assert.Equal(t, sandbox.NetworkOtherID, networks[0].Metadata.ID)

	var groups []unikorn.SecurityGroup

	h.Call(http.MethodGet, "/api/v2/securitygroups?networkID="+sandbox.NetworkDefaultID, nil).Expect(http.StatusOK, &groups)
	require.Len(t, groups, 2)
	assert.Equal(t, sandbox.SecurityGroupAllowSSHID, groups[0].Metadata.ID)
	assert.Equal(t, sandbox.SecurityGroupAllowWebID, groups[1].Metadata.ID)

	var cas []unikorn.SSHCertificateAuthority

	h.Call(http.MethodGet, "/api/v2/sshcertificateauthorities?projectID="+sandbox.ProjectID, nil).Expect(http.StatusOK, &cas)
	require.Len(t, cas, 1)
	assert.Equal(t, sandbox.SSHCAID, cas[0].Metadata.ID)

	h.Call(http.MethodGet, "/api/v2/securitygroups?tag=bad", nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}
