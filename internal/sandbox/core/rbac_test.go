package core_test

import (
	"net/http"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestServiceAPIsAreForServicesAlone shows what real Unikorn grants: region's servers
// and identity's allocations to the compute service's principal and the platform
// administrator, whose roles grant them, to no user, whatever their role in the
// project, and the public APIs to all.
func TestServiceAPIsAreForServicesAlone(t *testing.T) {
	h := sandboxtest.New(t)
	server := h.CreateReadyServer("service-made")
	allocations := "/api/v1/organizations/" + sandbox.OrganizationID + "/projects/" + sandbox.ProjectID + "/allocations"

	// Each request is well formed: a malformed one is refused as such (400) before any
	// handler weighs who sent it.
	update := unikorn.ServerUpdate{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: server.Spec}
	snapshot := `{"metadata":{"name":"snap"},"spec":{}}`
	allocation := sandboxtest.InstanceAllocation("f0000000-0000-4000-8000-000000000000", 0, 0)

	service := []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "/api/v2/servers", nil},
		{http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("by-user")},
		{http.MethodGet, "/api/v2/servers/" + server.Metadata.ID, nil},
		{http.MethodPut, "/api/v2/servers/" + server.Metadata.ID, update},
		{http.MethodDelete, "/api/v2/servers/" + server.Metadata.ID, nil},
		{http.MethodPost, "/api/v2/servers/" + server.Metadata.ID + "/stop", nil},
		{http.MethodGet, "/api/v2/servers/" + server.Metadata.ID + "/sshkey", nil},
		{http.MethodGet, "/api/v2/servers/" + server.Metadata.ID + "/consoleoutput", nil},
		{http.MethodPost, "/api/v2/servers/" + server.Metadata.ID + "/snapshot", snapshot},
		{http.MethodPost, allocations, allocation},
		{http.MethodGet, allocations + "/f0000000-0000-4000-8000-000000000000", nil},
		{http.MethodDelete, allocations + "/f0000000-0000-4000-8000-000000000000", nil},
	}

	for _, call := range service {
		t.Run(call.method+" "+call.path, func(t *testing.T) {
			// The project user, and the organization's administrator, whose role
			// grants the organization's every public API.
			for _, token := range []string{sandbox.DefaultToken, sandbox.AdminToken} {
				h.CallAs(token, call.method, call.path, call.body).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
			}
		})
	}

	for _, token := range []string{sandbox.ServiceToken, sandbox.PlatformAdminToken} {
		h.CallAs(token, http.MethodGet, "/api/v2/servers/"+server.Metadata.ID, nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodGet, allocations+"/f0000000-0000-4000-8000-000000000000", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	}

	h.CallAs(sandbox.PlatformAdminToken, http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("by-platform")).Expect(http.StatusCreated, nil)
	h.CallAs(sandbox.PlatformAdminToken, http.MethodPost, allocations, allocation).Expect(http.StatusCreated, nil)

	for _, token := range []string{sandbox.DefaultToken, sandbox.ServiceToken} {
		h.CallAs(token, http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodGet, sandboxtest.OrganizationPath("/quotas"), nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodPost, "/api/v2/loadbalancers", sandboxtest.LoadBalancerCreate("by-"+token, sandbox.NetworkDefaultID, false)).Expect(http.StatusCreated, nil)
		h.CallAs(token, http.MethodGet, "/api/v2/filestorage", nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodGet, "/api/v2/filestorageclasses", nil).Expect(http.StatusOK, nil)
	}
}
