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

func TestAuthenticationFailuresAre401WithChallenge(t *testing.T) {
	h := sandboxtest.New(t)
	path := sandboxtest.OrganizationPath("/regions")

	for name, header := range map[string]string{
		"missing":       "",
		"three parts":   "Bearer sandbox-token extra",
		"wrong scheme":  "Basic sandbox-token",
		"unknown token": "Bearer not-a-token",
	} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, h.URL+path, nil)
			require.NoError(t, err)

			if header != "" {
				req.Header.Set("Authorization", header)
			}

			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()

			require.Equal(t, http.StatusUnauthorized, resp.StatusCode)

			challenge := resp.Header.Get("WWW-Authenticate")
			assert.Contains(t, challenge, `Bearer error="access_denied", error_description="`)
			assert.Contains(t, challenge, `resource_metadata="`+h.URL+`/.well-known/openid-protected-resource"`)
		})
	}
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	h := sandboxtest.New(t)

	req, err := http.NewRequest(http.MethodGet, h.URL+sandboxtest.OrganizationPath("/regions"), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "bEaReR "+sandbox.DefaultToken)

	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()

	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestProtectedResourceMetadataNeedsNoToken(t *testing.T) {
	h := sandboxtest.New(t)

	var metadata map[string]any

	h.CallAs("", http.MethodGet, "/.well-known/openid-protected-resource", nil).Expect(http.StatusOK, &metadata)
	assert.Equal(t, h.URL, metadata["resource"])
}

func TestOutsiderIsForbiddenOrSeesNothing(t *testing.T) {
	h := sandboxtest.New(t)

	h.CallAs(sandbox.OutsiderToken, http.MethodGet, sandboxtest.OrganizationPath("/regions"), nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.OutsiderToken, http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.OutsiderToken, http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("intruder")).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.CallAs(sandbox.OutsiderToken, http.MethodGet, sandboxtest.OrganizationPath("/quotas"), nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// A region the caller may not see does not exist for it.
	h.CallAs(sandbox.OutsiderToken, http.MethodGet, "/api/v2/regions/"+sandbox.RegionID+"/images", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// With no organization left to list, the list is null rather than empty.
	resp := h.CallAs(sandbox.OutsiderToken, http.MethodGet, "/api/v2/networks", nil).Expect(http.StatusOK, nil)
	assert.JSONEq(t, "null", string(resp.Body))

	var organizations []unikorn.Organization

	h.CallAs(sandbox.OutsiderToken, http.MethodGet, "/api/v1/organizations", nil).Expect(http.StatusOK, &organizations)
	assert.Empty(t, organizations)
}

func TestUnknownRouteIs404AndWrongMethodIs405(t *testing.T) {
	h := sandboxtest.New(t)

	h.Call(http.MethodGet, "/api/v2/nothing", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	resp := h.Call(http.MethodPatch, "/api/v2/servers", nil)
	resp.ExpectError(http.StatusMethodNotAllowed, unikorn.ErrorMethodNotAllowed)
	assert.Equal(t, "GET, POST", resp.Header.Get("Allow"))
}

func TestRequestValidationIs400BeforeHandlers(t *testing.T) {
	h := sandboxtest.New(t)

	for name, tc := range map[string]struct {
		method, path string
		body         any
	}{
		"malformed path ID": {http.MethodGet, "/api/v2/servers/not-a-uuid", nil},
		"malformed JSON":    {http.MethodPost, "/api/v2/servers", `{"metadata":`},
		"missing member": {http.MethodPost, "/api/v2/servers", map[string]any{
			"metadata": map[string]any{"name": "x"},
			"spec":     map[string]any{"flavorId": sandbox.FlavorStandardID, "networkId": sandbox.NetworkDefaultID},
		}},
		"wrong type": {http.MethodPost, "/api/v2/servers", map[string]any{
			"metadata": map[string]any{"name": 7},
			"spec":     map[string]any{"flavorId": sandbox.FlavorStandardID, "imageId": sandbox.ImageUbuntuID, "networkId": sandbox.NetworkDefaultID},
		}},
		"name not a label value":         {http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("-bad name-")},
		"body checked before the lookup": {http.MethodPut, "/api/v2/servers/f0000000-0000-4000-8000-000000000000", `{}`},
		"malformed body ID": {http.MethodPost, "/api/v2/servers", func() unikorn.ServerCreate {
			body := sandboxtest.ServerCreate("ok")
			body.Spec.FlavorID = "sim-standard-4"

			return body
		}()},
		"tag without value": {http.MethodPost, "/api/v2/servers", map[string]any{
			"metadata": map[string]any{"name": "x", "tags": []any{map[string]any{"name": "a"}}},
			"spec":     map[string]any{"flavorId": sandbox.FlavorStandardID, "imageId": sandbox.ImageUbuntuID, "networkId": sandbox.NetworkDefaultID},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			h.Call(tc.method, tc.path, tc.body).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}

	// Nothing was created by any of them.
	var servers []unikorn.Server

	h.Call(http.MethodGet, "/api/v2/servers", nil).Expect(http.StatusOK, &servers)
	assert.Empty(t, servers)
}

// Upstream's generated routers bind path IDs before they authenticate: an empty or
// malformed ID is a 400 with or without a token, for region's, identity's and
// compute's routes alike, and never a redirect to a cleaned path.
func TestMalformedPathElementIs400BeforeAuthentication(t *testing.T) {
	h := sandboxtest.New(t)

	for name, path := range map[string]string{
		"region ID":               sandboxtest.OrganizationPath("/regions/invalid-uuid/images"),
		"empty organization ID":   "/api/v1/organizations//regions",
		"identity ID":             sandboxtest.OrganizationPath("/groups/not-a-uuid"),
		"compute instance ID":     sandbox.ComputePrefix + "/api/v2/instances/not-a-uuid",
		"compute organization ID": sandbox.ComputePrefix + "/api/v1/organizations/invalid-org-123/regions",
	} {
		for _, token := range []string{"", sandbox.DefaultToken} {
			t.Run(name+" token "+token, func(t *testing.T) {
				body := h.CallAs(token, http.MethodGet, path, nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
				assert.Equal(t, "invalid path/query element", body.ErrorDescription)
			})
		}
	}
}

func TestNonJSONBodyIsUnsupported(t *testing.T) {
	h := sandboxtest.New(t)

	req, err := http.NewRequest(http.MethodPost, h.URL+"/api/v2/servers", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+sandbox.ServiceToken)
	req.Header.Set("Content-Type", "text/plain")

	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()

	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
}

func TestCustomTokenReplacesTheDefault(t *testing.T) {
	h := sandboxtest.New(t, func(o *sandbox.Options) { o.Token = "my-token" })

	h.CallAs("my-token", http.MethodGet, sandboxtest.OrganizationPath("/regions"), nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandboxtest.OrganizationPath("/regions"), nil).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
}
