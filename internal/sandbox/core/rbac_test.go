package core_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

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

	for _, token := range []string{sandbox.DefaultToken, sandbox.PlatformAdminToken} {
		h.CallAs(token, http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodGet, sandboxtest.OrganizationPath("/quotas"), nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodPost, "/api/v2/loadbalancers", sandboxtest.LoadBalancerCreate("by-"+token, sandbox.NetworkDefaultID, false)).Expect(http.StatusCreated, nil)
		h.CallAs(token, http.MethodGet, "/api/v2/filestorage", nil).Expect(http.StatusOK, nil)
		h.CallAs(token, http.MethodGet, "/api/v2/filestorageclasses", nil).Expect(http.StatusOK, nil)
	}
}

// TestComputesAccountMayOnlyWhatItsRoleGrants shows compute's own account as
// identity's chart makes it, with the compute-service role: it reads the networks,
// security groups and SSH certificate authorities its instances use, and makes or
// removes none of them; load balancers, file storage and quotas it may not even read.
func TestComputesAccountMayOnlyWhatItsRoleGrants(t *testing.T) {
	h := sandboxtest.New(t)
	network := h.CreateNetwork("spare", "10.8.0.0/24")
	balancer := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("made", sandbox.NetworkDefaultID, false))
	storage := h.CreateFileStorage(sandboxtest.FileStorageCreate("made", 1, sandbox.NetworkDefaultID))
	ca := createSSHCA(h, "made")
	group := unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "by-compute"},
		Spec:     unikorn.SecurityGroupCreateSpec{SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}}, NetworkID: sandbox.NetworkDefaultID},
	}

	refused := []struct {
		method, path string
		body         any
	}{
		{http.MethodPost, "/api/v2/networks", sandboxtest.NetworkCreate("by-compute", "10.9.0.0/24")},
		{http.MethodDelete, "/api/v2/networks/" + network.Metadata.ID, nil},
		{http.MethodPost, "/api/v2/securitygroups", group},
		{http.MethodDelete, "/api/v2/securitygroups/" + sandbox.SecurityGroupAllowWebID, nil},
		{http.MethodPost, "/api/v2/sshcertificateauthorities", sshCACreate(t, "by-compute")},
		{http.MethodDelete, "/api/v2/sshcertificateauthorities/" + ca, nil},
		{http.MethodPost, "/api/v2/loadbalancers", sandboxtest.LoadBalancerCreate("by-compute", sandbox.NetworkDefaultID, false)},
		{http.MethodGet, "/api/v2/loadbalancers/" + balancer.Metadata.ID, nil},
		{http.MethodDelete, "/api/v2/loadbalancers/" + balancer.Metadata.ID, nil},
		{http.MethodPost, "/api/v2/filestorage", sandboxtest.FileStorageCreate("by-compute", 1, sandbox.NetworkDefaultID)},
		{http.MethodGet, "/api/v2/filestorage/" + storage.Metadata.ID, nil},
		{http.MethodDelete, "/api/v2/filestorage/" + storage.Metadata.ID, nil},
		{http.MethodGet, sandboxtest.OrganizationPath("/quotas"), nil},
	}

	for _, call := range refused {
		r := h.CallAs(sandbox.ServiceToken, call.method, call.path, call.body)
		assert.Equal(t, http.StatusForbidden, r.Status, "%s %s: %s", call.method, call.path, r.Body)
	}

	for _, path := range []string{
		"/api/v2/networks/" + network.Metadata.ID,
		"/api/v2/securitygroups/" + sandbox.SecurityGroupAllowWebID,
		"/api/v2/sshcertificateauthorities/" + ca,
	} {
		h.CallAs(sandbox.ServiceToken, http.MethodGet, path, nil).Expect(http.StatusOK, nil)
	}

	// Nothing refused was made; what it may read it sees in lists too, and region's
	// lists leave out what it may not.
	networks := sandboxtest.Listed(h, sandbox.ServiceToken, "/api/v2/networks", func(n unikorn.Network) string { return n.Metadata.Name })
	assert.Contains(t, networks, "spare")
	assert.NotContains(t, networks, "by-compute")
	assert.Empty(t, sandboxtest.Listed(h, sandbox.ServiceToken, "/api/v2/loadbalancers", func(b unikorn.LoadBalancer) string { return b.Metadata.Name }))
	assert.Empty(t, sandboxtest.Listed(h, sandbox.ServiceToken, "/api/v2/filestorage", func(f unikorn.FileStorage) string { return f.Metadata.Name }))
	assert.NotEmpty(t, sandboxtest.Listed(h, sandbox.PlatformAdminToken, "/api/v2/filestorage", func(f unikorn.FileStorage) string { return f.Metadata.Name }))
	assert.Len(t, h.Sandbox.FileStorage(), 1)
	assert.Len(t, h.Sandbox.LoadBalancers(), 1)
}
