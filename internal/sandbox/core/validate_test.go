package core_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// firstLine is a validation error's message without the schema and value kin-openapi
// appends to it.
func firstLine(description string) string {
	line, _, _ := strings.Cut(description, "\n")

	return line
}

// TestRequestsAreCheckedAgainstTheContract shows each service refusing, as upstream's
// OpenAPI middleware does, a request its contract does not allow: 400 invalid_request,
// the validator's own words as the description.
func TestRequestsAreCheckedAgainstTheContract(t *testing.T) {
	h := sandboxtest.New(t)

	badName := sandboxtest.NetworkCreate("Not a name!", "10.9.0.0/24")

	body := h.Call(http.MethodPost, "/api/v2/networks", badName).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/networkV2Create: `+
		`Error at "/metadata/name": string doesn't match the regular expression "^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$"`,
		firstLine(body.ErrorDescription))
	assert.Contains(t, body.ErrorDescription, "\nValue:\n  \"Not a name!\"")

	missing := `{"metadata":{"name":"x"},"spec":{"organizationId":"` + sandbox.OrganizationID + `","projectId":"` + sandbox.ProjectID +
		`","regionId":"` + sandbox.RegionID + `","dnsNameservers":["8.8.8.8"]}}`
	body = h.Call(http.MethodPost, "/api/v2/networks", missing).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/networkV2Create: `+
		`Error at "/spec": doesn't match schema due to: Error at "/prefix": property "prefix" is missing`, firstLine(body.ErrorDescription))

	body = h.Call(http.MethodGet, "/api/v2/regions/"+sandbox.RegionID+"/images?scope=everything", nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `parameter "scope" in query has an error: value is not one of the allowed values ["owned","available"]`,
		firstLine(body.ErrorDescription))

	listener := sandboxtest.LoadBalancerCreate("lb", sandbox.NetworkDefaultID, false)
	listener.Spec.Listeners[0].Protocol = "sctp"
	body = h.Call(http.MethodPost, "/api/v2/loadbalancers", listener).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/loadBalancerV2Create: `+
		`Error at "/spec": doesn't match schema due to: Error at "/listeners/0/protocol": value is not one of the allowed values ["tcp","udp"]`,
		firstLine(body.ErrorDescription))

	body = h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/projects"), unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "-team"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	}).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/projectWrite: `+
		`Error at "/metadata/name": string doesn't match the regular expression "^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$"`,
		firstLine(body.ErrorDescription))

	body = h.CallAs(sandbox.DefaultToken, http.MethodPost, sandbox.ComputePrefix+"/api/v2/instances", unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: "web server"},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			NetworkID:      sandbox.NetworkDefaultID,
		},
	}).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/instanceCreate: `+
		`Error at "/metadata/name": string doesn't match the regular expression "^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$"`,
		firstLine(body.ErrorDescription))

	assert.Empty(t, h.Sandbox.LoadBalancers(), "nothing refused was made")
}

// TestAuthenticationPrecedesTheContractAndAuthorizationFollows shows upstream's order:
// the bearer token is authenticated first (401), the request then checked against the
// contract (400), and only then weighed by RBAC in the handler (403).
func TestAuthenticationPrecedesTheContractAndAuthorizationFollows(t *testing.T) {
	h := sandboxtest.New(t)

	malformed := sandboxtest.NetworkCreate("Not a name!", "10.9.0.0/24")

	h.CallAs("not-a-token", http.MethodPost, "/api/v2/networks", malformed).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.CallAs("", http.MethodPost, "/api/v2/networks", malformed).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.CallAs(sandbox.ForeignToken, http.MethodPost, "/api/v2/networks", malformed).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.CallAs(sandbox.ForeignToken, http.MethodPost, "/api/v2/networks", sandboxtest.NetworkCreate("fine", "10.9.0.0/24")).
		ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
}

// TestParametersBindAsTheGeneratedRouterDoes shows the refusal of a path or query
// parameter that will not bind to its UUID type, which upstream's generated router
// makes before the handler: a 400 of its own words. (That it comes before the token is
// looked at, with or without one, is TestMalformedPathElementIs400BeforeAuthentication's.)
func TestParametersBindAsTheGeneratedRouterDoes(t *testing.T) {
	h := sandboxtest.New(t)

	for _, path := range []string{
		"/api/v1/organizations/invalid-org-123/regions",
		"/api/v1/organizations/" + sandbox.OrganizationID + "/regions/invalid-region-id/flavors",
		sandbox.ComputePrefix + "/api/v2/instances/not-an-id",
	} {
		body := h.Call(http.MethodGet, path, nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		assert.Equal(t, "invalid path/query element", body.ErrorDescription, path)
	}
}
