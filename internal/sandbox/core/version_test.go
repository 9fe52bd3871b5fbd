package core_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestEachServiceAnswersItsVersionAtItsBaseURL(t *testing.T) {
	h := sandboxtest.New(t)

	var version unikorn.ServiceVersion

	h.CallAs(sandbox.DefaultToken, http.MethodGet, "/api/version", nil).Expect(http.StatusOK, &version)
	assert.Equal(t, unikorn.ServiceVersion{Name: "unikorn-identity", Version: "1.18.1"}, version)

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.RegionPrefix+"/api/version", nil).Expect(http.StatusOK, &version)
	assert.Equal(t, unikorn.ServiceVersion{Name: "unikorn-region-controller", Version: "1.20.0"}, version)

	h.CallAs("", http.MethodGet, "/api/version", nil).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)

	// Region's base URL serves region's operations and only those, and points a client
	// it turns away at its own metadata.
	var networks []unikorn.Network

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.RegionPrefix+"/api/v2/networks", nil).Expect(http.StatusOK, &networks)
	assert.NotEmpty(t, networks)
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.RegionPrefix+sandboxtest.OrganizationPath("/regions"), nil).Expect(http.StatusOK, nil)
	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.RegionPrefix+sandboxtest.OrganizationPath(""), nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.DefaultToken, http.MethodPost, sandbox.RegionPrefix+"/oauth2/v2/token", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	refused := h.CallAs("", http.MethodGet, sandbox.RegionPrefix+"/api/v2/networks", nil)
	refused.ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	assert.Contains(t, refused.Header.Get("WWW-Authenticate"), h.URL+sandbox.RegionPrefix+"/.well-known/openid-protected-resource")
	h.CallAs("", http.MethodGet, sandbox.RegionPrefix+"/.well-known/openid-protected-resource", nil).Expect(http.StatusOK, nil)
}
