package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAuthenticationFailuresAre401WithChallenge(t *testing.T) {
	h := newHarness(t)
	path := organizationPath("/regions")

	for name, header := range map[string]string{
		"missing":       "",
		"three parts":   "Bearer sandbox-token extra",
		"wrong scheme":  "Basic sandbox-token",
		"unknown token": "Bearer not-a-token",
	} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, h.url+path, nil)
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
			assert.Contains(t, challenge, `resource_metadata="`+h.url+`/.well-known/openid-protected-resource"`)
		})
	}
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	h := newHarness(t)

	req, err := http.NewRequest(http.MethodGet, h.url+organizationPath("/regions"), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "bEaReR "+DefaultToken)

	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()

	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestProtectedResourceMetadataNeedsNoToken(t *testing.T) {
	h := newHarness(t)

	var metadata map[string]any

	h.callAs("", http.MethodGet, "/.well-known/openid-protected-resource", nil).expect(http.StatusOK, &metadata)
	assert.Equal(t, h.url, metadata["resource"])
}

func TestOutsiderIsForbiddenOrSeesNothing(t *testing.T) {
	h := newHarness(t)

	h.callAs(OutsiderToken, http.MethodGet, organizationPath("/regions"), nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(OutsiderToken, http.MethodGet, "/api/v2/networks/"+NetworkDefaultID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(OutsiderToken, http.MethodPost, "/api/v2/servers", serverCreate("intruder")).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.callAs(OutsiderToken, http.MethodGet, organizationPath("/quotas"), nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	// A region the caller may not see does not exist for it.
	h.callAs(OutsiderToken, http.MethodGet, "/api/v2/regions/"+RegionID+"/images", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// With no organization left to list, the list is null rather than empty.
	resp := h.callAs(OutsiderToken, http.MethodGet, "/api/v2/networks", nil).expect(http.StatusOK, nil)
	assert.JSONEq(t, "null", string(resp.body))

	var organizations []unikorn.Organization

	h.callAs(OutsiderToken, http.MethodGet, "/api/v1/organizations", nil).expect(http.StatusOK, &organizations)
	assert.Empty(t, organizations)
}

func TestUnknownRouteIs404AndWrongMethodIs405(t *testing.T) {
	h := newHarness(t)

	h.call(http.MethodGet, "/api/v2/nothing", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	resp := h.call(http.MethodPatch, "/api/v2/servers", nil)
	resp.expectError(http.StatusMethodNotAllowed, unikorn.ErrorMethodNotAllowed)
	assert.Equal(t, "GET, POST", resp.header.Get("Allow"))
}

func TestRequestValidationIs400BeforeHandlers(t *testing.T) {
	h := newHarness(t)

	for name, tc := range map[string]struct {
		method, path string
		body         any
	}{
		"malformed path ID": {http.MethodGet, "/api/v2/servers/not-a-uuid", nil},
		"malformed JSON":    {http.MethodPost, "/api/v2/servers", `{"metadata":`},
		"missing member": {http.MethodPost, "/api/v2/servers", map[string]any{
			"metadata": map[string]any{"name": "x"},
			"spec":     map[string]any{"flavorId": FlavorStandardID, "networkId": NetworkDefaultID},
		}},
		"wrong type": {http.MethodPost, "/api/v2/servers", map[string]any{
			"metadata": map[string]any{"name": 7},
			"spec":     map[string]any{"flavorId": FlavorStandardID, "imageId": ImageUbuntuID, "networkId": NetworkDefaultID},
		}},
		"name not a label value":         {http.MethodPost, "/api/v2/servers", serverCreate("-bad name-")},
		"body checked before the lookup": {http.MethodPut, "/api/v2/servers/f0000000-0000-4000-8000-000000000000", `{}`},
		"malformed body ID": {http.MethodPost, "/api/v2/servers", func() unikorn.ServerCreate {
			body := serverCreate("ok")
			body.Spec.FlavorID = "sim-standard-4"

			return body
		}()},
		"tag without value": {http.MethodPost, "/api/v2/servers", map[string]any{
			"metadata": map[string]any{"name": "x", "tags": []any{map[string]any{"name": "a"}}},
			"spec":     map[string]any{"flavorId": FlavorStandardID, "imageId": ImageUbuntuID, "networkId": NetworkDefaultID},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			h.call(tc.method, tc.path, tc.body).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}

	// Nothing was created by any of them.
	var servers []unikorn.Server

	h.call(http.MethodGet, "/api/v2/servers", nil).expect(http.StatusOK, &servers)
	assert.Empty(t, servers)
}

// Upstream's generated routers bind path IDs before they authenticate: an empty or
// malformed ID is a 400 with or without a token, for region's, identity's and
// compute's routes alike, and never a redirect to a cleaned path.
func TestMalformedPathElementIs400BeforeAuthentication(t *testing.T) {
	h := newHarness(t)

	for name, path := range map[string]string{
		"region ID":               organizationPath("/regions/invalid-uuid/images"),
		"empty organization ID":   "/api/v1/organizations//regions",
		"identity ID":             organizationPath("/groups/not-a-uuid"),
		"compute instance ID":     ComputePrefix + "/api/v2/instances/not-a-uuid",
		"compute organization ID": ComputePrefix + "/api/v1/organizations/invalid-org-123/regions",
	} {
		for _, token := range []string{"", DefaultToken} {
			t.Run(name+" token "+token, func(t *testing.T) {
				body := h.callAs(token, http.MethodGet, path, nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
				assert.Equal(t, "invalid path/query element", body.ErrorDescription)
			})
		}
	}
}

func TestNonJSONBodyIsUnsupported(t *testing.T) {
	h := newHarness(t)

	req, err := http.NewRequest(http.MethodPost, h.url+"/api/v2/servers", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+ServiceToken)
	req.Header.Set("Content-Type", "text/plain")

	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()

	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
}

func TestCustomTokenReplacesTheDefault(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Token = "my-token" })

	h.callAs("my-token", http.MethodGet, organizationPath("/regions"), nil).expect(http.StatusOK, nil)
	h.callAs(DefaultToken, http.MethodGet, organizationPath("/regions"), nil).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
}
