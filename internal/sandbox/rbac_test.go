package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestServiceAPIsAreForServicesAlone shows what real Unikorn grants: region's servers
// and identity's allocations to the compute service's principal, to no user, whatever
// their role, and the public APIs to both.
func TestServiceAPIsAreForServicesAlone(t *testing.T) {
	h := newHarness(t)
	server := h.createReadyServer("service-made")
	allocations := "/api/v1/organizations/" + OrganizationID + "/projects/" + ProjectID + "/allocations"

	// Each request is well formed: a malformed one is refused as such (400) before any
	// handler weighs who sent it.
	update := unikorn.ServerUpdate{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: server.Spec}
	snapshot := `{"metadata":{"name":"snap"},"spec":{}}`
	allocation := instanceAllocation("f0000000-0000-4000-8000-000000000000", 0, 0)

	service := []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "/api/v2/servers", nil},
		{http.MethodPost, "/api/v2/servers", serverCreate("by-user")},
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
			h.callAs(DefaultToken, call.method, call.path, call.body).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
		})
	}

	h.callAs(ServiceToken, http.MethodGet, "/api/v2/servers/"+server.Metadata.ID, nil).expect(http.StatusOK, nil)
	h.callAs(ServiceToken, http.MethodGet, allocations+"/f0000000-0000-4000-8000-000000000000", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	for _, token := range []string{DefaultToken, ServiceToken} {
		h.callAs(token, http.MethodGet, "/api/v2/networks/"+NetworkDefaultID, nil).expect(http.StatusOK, nil)
		h.callAs(token, http.MethodGet, organizationPath("/quotas"), nil).expect(http.StatusOK, nil)
		h.callAs(token, http.MethodPost, "/api/v2/loadbalancers", loadBalancerCreate("by-"+token, NetworkDefaultID, false)).expect(http.StatusCreated, nil)
		h.callAs(token, http.MethodGet, "/api/v2/filestorage", nil).expect(http.StatusOK, nil)
		h.callAs(token, http.MethodGet, "/api/v2/filestorageclasses", nil).expect(http.StatusOK, nil)
	}
}

// Compute asks identity's ACL before it creates an instance, as its handler does: an
// auditor of the organization, who may read instances and the project, may not create
// one, and nothing is charged to the quota for the refusal.
func TestComputeInstanceCreateChecksRBAC(t *testing.T) {
	h := newHarness(t)
	group := h.createGroup(organizationPath, "auditors", unikorn.GroupSpec{RoleIDs: []string{AuditorRoleID}, ServiceAccountIDs: []string{}})

	var account unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPost, organizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "audit"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	}).expect(http.StatusCreated, &account)

	auditor := account.Status.AccessToken
	h.projectAs(auditor, OrganizationID, ProjectID).expect(http.StatusOK, nil)

	create := unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: "web"},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID},
			OrganizationID: OrganizationID,
			ProjectID:      ProjectID,
			NetworkID:      NetworkDefaultID,
		},
	}

	allocations := len(h.sb.Allocations())

	refusal := h.callAs(auditor, http.MethodPost, ComputePrefix+"/api/v2/instances", create).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Contains(t, refusal.ErrorDescription, "operation is not allowed by rbac: operation 'create' on endpoint 'compute:instances'")
	assert.Len(t, h.sb.Allocations(), allocations, "a refused create charges nothing")

	h.callAs(DefaultToken, http.MethodPost, ComputePrefix+"/api/v2/instances", create).expect(http.StatusCreated, nil)
}
