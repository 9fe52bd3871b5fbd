package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

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
	h := newHarness(t)

	badName := networkCreate("Not a name!", "10.9.0.0/24")

	body := h.call(http.MethodPost, "/api/v2/networks", badName).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/networkV2Create: `+
		`Error at "/metadata/name": string doesn't match the regular expression "^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$"`,
		firstLine(body.ErrorDescription))
	assert.Contains(t, body.ErrorDescription, "\nValue:\n  \"Not a name!\"")

	missing := `{"metadata":{"name":"x"},"spec":{"organizationId":"` + OrganizationID + `","projectId":"` + ProjectID +
		`","regionId":"` + RegionID + `","dnsNameservers":["8.8.8.8"]}}`
	body = h.call(http.MethodPost, "/api/v2/networks", missing).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/networkV2Create: `+
		`Error at "/spec": doesn't match schema due to: Error at "/prefix": property "prefix" is missing`, firstLine(body.ErrorDescription))

	body = h.call(http.MethodGet, "/api/v2/regions/"+RegionID+"/images?scope=everything", nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `parameter "scope" in query has an error: value is not one of the allowed values ["owned","available"]`,
		firstLine(body.ErrorDescription))

	listener := loadBalancerCreate("lb", NetworkDefaultID, false)
	listener.Spec.Listeners[0].Protocol = "sctp"
	body = h.call(http.MethodPost, "/api/v2/loadbalancers", listener).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/loadBalancerV2Create: `+
		`Error at "/spec": doesn't match schema due to: Error at "/listeners/0/protocol": value is not one of the allowed values ["tcp","udp"]`,
		firstLine(body.ErrorDescription))

	body = h.callAs(AdminToken, http.MethodPost, organizationPath("/projects"), unikorn.ProjectWrite{
		Metadata: unikorn.WriteMetadata{Name: "-team"}, Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	}).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/projectWrite: `+
		`Error at "/metadata/name": string doesn't match the regular expression "^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$"`,
		firstLine(body.ErrorDescription))

	body = h.callAs(DefaultToken, http.MethodPost, ComputePrefix+"/api/v2/instances", unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: "web server"},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID},
			OrganizationID: OrganizationID,
			ProjectID:      ProjectID,
			NetworkID:      NetworkDefaultID,
		},
	}).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Equal(t, `request body has an error: doesn't match schema #/components/schemas/instanceCreate: `+
		`Error at "/metadata/name": string doesn't match the regular expression "^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$"`,
		firstLine(body.ErrorDescription))

	assert.Empty(t, h.sb.LoadBalancers(), "nothing refused was made")
}

// TestAuthenticationPrecedesTheContractAndAuthorizationFollows shows upstream's order:
// the bearer token is authenticated first (401), the request then checked against the
// contract (400), and only then weighed by RBAC in the handler (403).
func TestAuthenticationPrecedesTheContractAndAuthorizationFollows(t *testing.T) {
	h := newHarness(t)

	malformed := networkCreate("Not a name!", "10.9.0.0/24")

	h.callAs("not-a-token", http.MethodPost, "/api/v2/networks", malformed).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.callAs("", http.MethodPost, "/api/v2/networks", malformed).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.callAs(ForeignToken, http.MethodPost, "/api/v2/networks", malformed).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	h.callAs(ForeignToken, http.MethodPost, "/api/v2/networks", networkCreate("fine", "10.9.0.0/24")).
		expectError(http.StatusForbidden, unikorn.ErrorForbidden)
}

// TestParametersBindAsTheGeneratedRouterDoes shows the refusal of a path or query
// parameter that will not bind to its UUID type, which upstream's generated router
// makes before the handler: a 400 of its own words. (That it comes before the token is
// looked at, with or without one, is TestMalformedPathElementIs400BeforeAuthentication's.)
func TestParametersBindAsTheGeneratedRouterDoes(t *testing.T) {
	h := newHarness(t)

	for _, path := range []string{
		"/api/v1/organizations/invalid-org-123/regions",
		"/api/v1/organizations/" + OrganizationID + "/regions/invalid-region-id/flavors",
		ComputePrefix + "/api/v2/instances/not-an-id",
	} {
		body := h.call(http.MethodGet, path, nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		assert.Equal(t, "invalid path/query element", body.ErrorDescription, path)
	}
}
