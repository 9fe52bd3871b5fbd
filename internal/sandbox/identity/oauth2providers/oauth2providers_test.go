package oauth2providers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/oauth2providers"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestOrganizationOAuth2Providers(t *testing.T) {
	h := sandboxtest.New(t)
	google := "google"

	write := map[string]any{
		"metadata": map[string]any{"name": "okta"},
		"spec":     map[string]any{"type": google, "issuer": "https://login.example.com", "clientID": "abc", "clientSecret": "s3cret"},
	}

	// A project user may not manage them.
	h.CallAs(sandbox.DefaultToken, http.MethodPost, sandboxtest.OrganizationPath("/oauth2providers"), write).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	var created oauth2providers.Provider

	r := h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/oauth2providers"), write).Expect(http.StatusCreated, &created)
	assert.NotContains(t, string(r.Body), "s3cret", "the secret is never read back")
	assert.Equal(t, sandbox.OrganizationID, created.Metadata.OrganizationID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, created.Metadata.ProvisioningStatus)
	assert.Equal(t, oauth2providers.ProviderSpec{Type: &google, Issuer: "https://login.example.com", ClientID: "abc"}, created.Spec)

	path := sandboxtest.OrganizationPath("/oauth2providers/" + created.Metadata.ID)

	write["spec"] = map[string]any{"issuer": "https://login.example.com", "clientID": "def"}
	h.CallAs(sandbox.AdminToken, http.MethodPut, path, write).Expect(http.StatusOK, nil)

	var listed []oauth2providers.Provider

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/oauth2providers"), nil).Expect(http.StatusOK, &listed)
	require.Len(t, listed, 1)
	assert.Equal(t, oauth2providers.ProviderSpec{Issuer: "https://login.example.com", ClientID: "def"}, listed[0].Spec)

	// Other organizations do not see it; an unknown provider is not found.
	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.EmptyOrganizationPath("/oauth2providers"), nil).Expect(http.StatusOK, &listed)
	assert.Empty(t, listed)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.EmptyOrganizationPath("/oauth2providers/"+created.Metadata.ID), nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.OrganizationPath("/oauth2providers/not-a-uuid"), nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.AdminToken, http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// The platform's are anyone's to list.
	h.CallAs(sandbox.OutsiderToken, http.MethodGet, "/api/v1/oauth2providers", nil).Expect(http.StatusOK, &listed)
	require.Len(t, listed, 1)
	assert.Equal(t, h.URL, listed[0].Spec.Issuer, "the platform's provider issues the sandbox's own users")
}
