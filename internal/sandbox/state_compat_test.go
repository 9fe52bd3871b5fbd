package sandbox_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The objects testdata/state-v3.json holds beyond the fixtures, one of every kind the
// sandbox keeps: a state file as the sandbox wrote it before its families had packages
// of their own, which every later sandbox must go on loading and serving.
const (
	keptNetworkID        = "afebb5ae-6798-4882-8a1d-9cbb4f22590a"
	keptSecurityGroupID  = "eeac9365-cef0-4e85-8de7-817f76db2a6c"
	keptSSHCAID          = "c55cfb35-067d-407e-9ea6-dd8c44a78b74"
	keptServerID         = "cbc12e1c-f179-5c4e-8332-9b57eece186e"
	keptLoadBalancerID   = "d2ee6750-8028-4eb4-90f0-800039255753"
	keptFileStorageID    = "cc4d3c44-2d78-4a0a-918e-fea238a6f1d9"
	keptImageID          = "f7c21727-5e54-49e0-b52d-edfe26286c6b"
	keptAllocationID     = "f2ee0c03-9169-4744-93aa-46b4d93b9f11"
	keptGroupID          = "fd306964-8d66-408f-b2cf-d4e452321d0a"
	keptProjectID        = "a9621d58-e10c-4a95-aaf7-cece31183c34"
	keptServiceAccountID = "e9d62744-3a26-45fe-b145-c35d556b4c43"
	keptServiceToken     = "sandbox-sa-QjUtYMq8x6T0zj1EnEzew46IvzGiYkQp"
	keptUserID           = "b6062918-7b1e-461f-bdff-42030e06bf56"
	keptProviderID       = "f39cfeb0-427e-4a2d-9b2b-f547573e74e9"
	keptInstanceID       = "c74914f2-4f38-506d-bd50-e8828bba00d0"
)

// startFromSavedState starts a sandbox from a copy of testdata/state-v3.json (the
// sandbox saves on every change, and the original must stay as it was written).
func startFromSavedState(t *testing.T) *sandboxtest.Harness {
	t.Helper()

	data, err := os.ReadFile(filepath.Join("testdata", "state-v3.json"))
	require.NoError(t, err)

	statePath := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(statePath, data, 0o600))

	h := sandboxtest.New(t, func(o *sandbox.Options) { o.StatePath = statePath })
	h.Clock.Advance(10 * sandboxtest.Settle)

	return h
}

func TestAStateFileOfEveryKindStillLoads(t *testing.T) {
	h := startFromSavedState(t)

	// Region's objects, each read by ID.
	for _, object := range []struct{ path, name string }{
		{"/api/v2/networks/" + keptNetworkID, "kept-network"},
		{"/api/v2/securitygroups/" + keptSecurityGroupID, "kept-group"},
		{"/api/v2/sshcertificateauthorities/" + keptSSHCAID, "kept-ca"},
		{"/api/v2/servers/" + keptServerID, "kept-server"},
		{"/api/v2/loadbalancers/" + keptLoadBalancerID, "kept-lb"},
		{"/api/v2/filestorage/" + keptFileStorageID, "kept-storage"},
	} {
		var read struct {
			Metadata unikorn.ProjectScopedMetadata `json:"metadata"`
		}

		h.Call(http.MethodGet, object.path, nil).Expect(http.StatusOK, &read)
		assert.Equal(t, object.name, read.Metadata.Name, object.path)
		assert.Equal(t, unikorn.ProvisioningProvisioned, read.Metadata.ProvisioningStatus, object.path)
	}

	server := h.GetServer(keptServerID)
	assert.Equal(t, unikorn.PowerRunning, server.Status.PowerState)
	assert.NotEmpty(t, server.Status.PublicIP)

	var storage unikorn.FileStorage

	h.Call(http.MethodGet, "/api/v2/filestorage/"+keptFileStorageID, nil).Expect(http.StatusOK, &storage)
	require.Len(t, storage.Status.Attachments, 1)
	assert.NotEmpty(t, storage.Status.Attachments[0].MountSource, "the share stays mounted on its network")

	images := h.ListImagesV2(map[string][]string{"organizationID": {sandbox.OrganizationID}, "scope": {"owned"}})
	assert.Equal(t, []string{"kept-image"}, sandboxtest.ImageNames(images))
	assert.Equal(t, keptImageID, images[0].Metadata.ID)

	// Identity's objects.
	h.Call(http.MethodGet, sandboxtest.AllocationsPath(sandbox.ProjectID)+"/"+keptAllocationID, nil).Expect(http.StatusOK, nil)

	var group unikorn.Group

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/groups/"+keptGroupID), nil).Expect(http.StatusOK, &group)
	assert.Equal(t, []string{keptServiceAccountID}, group.Spec.ServiceAccountIDs)

	var project unikorn.Project

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/projects/"+keptProjectID), nil).Expect(http.StatusOK, &project)
	assert.Equal(t, []string{keptGroupID}, project.Spec.GroupIDs)

	var accounts []unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/serviceaccounts"), nil).Expect(http.StatusOK, &accounts)
	require.Len(t, accounts, 1)
	assert.Equal(t, keptServiceAccountID, accounts[0].Metadata.ID)
	assert.Equal(t, []string{keptGroupID}, accounts[0].Spec.GroupIDs)

	// The account's token still authenticates, with what its group gives it.
	h.CallAs(keptServiceToken, http.MethodGet, "/api/v1/organizations/"+sandbox.OrganizationID+"/projects/"+keptProjectID, nil).Expect(http.StatusOK, nil)

	var users []unikorn.User

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/users"), nil).Expect(http.StatusOK, &users)

	kept := slices.IndexFunc(users, func(u unikorn.User) bool { return u.Metadata.ID == keptUserID })
	require.GreaterOrEqual(t, kept, 0)
	assert.Equal(t, "kept@example.com", users[kept].Spec.Subject)
	assert.Equal(t, []string{keptGroupID}, users[kept].Spec.GroupIDs)

	var organization unikorn.Organization

	h.Call(http.MethodGet, sandboxtest.OrganizationPath(""), nil).Expect(http.StatusOK, &organization)
	assert.Equal(t, "kept organization", organization.Metadata.Description)

	assert.Equal(t, 12, h.Quota("servers").Quantity)

	var providers []struct {
		Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	}

	h.CallAs(sandbox.AdminToken, http.MethodGet, sandboxtest.OrganizationPath("/oauth2providers"), nil).Expect(http.StatusOK, &providers)
	require.Len(t, providers, 1)
	assert.Equal(t, keptProviderID, providers[0].Metadata.ID)

	// Compute's instance, and the server behind it.
	var instance unikorn.Instance

	h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.ComputePrefix+"/api/v2/instances/"+keptInstanceID, nil).Expect(http.StatusOK, &instance)
	assert.Equal(t, "kept-instance", instance.Metadata.Name)
	assert.Equal(t, unikorn.ProvisioningProvisioned, instance.Metadata.ProvisioningStatus)

	servers, err := h.Sandbox.InstanceServers(keptInstanceID)
	require.NoError(t, err)
	assert.Len(t, servers, 1)
}

// What the saved objects hold keeps holding: a network in use, a project with objects.
func TestAStateFileKeepsWhatHoldsWhat(t *testing.T) {
	h := startFromSavedState(t)

	h.Call(http.MethodDelete, "/api/v2/networks/"+keptNetworkID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.Call(http.MethodDelete, "/api/v2/securitygroups/"+keptSecurityGroupID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.Call(http.MethodDelete, "/api/v2/sshcertificateauthorities/"+keptSSHCAID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	made := map[string][]string{}

	for _, object := range h.Sandbox.Objects() {
		if !object.Fixture {
			made[object.Kind] = append(made[object.Kind], object.ID)
		}
	}

	for kind, id := range map[string]string{
		sandbox.ObjectNetwork: keptNetworkID, sandbox.ObjectSecurityGroup: keptSecurityGroupID, sandbox.ObjectSSHCertificateAuthority: keptSSHCAID,
		sandbox.ObjectServer: keptServerID, sandbox.ObjectLoadBalancer: keptLoadBalancerID, sandbox.ObjectFileStorage: keptFileStorageID,
		sandbox.ObjectImage: keptImageID, sandbox.ObjectAllocation: keptAllocationID, sandbox.ObjectProject: keptProjectID, sandbox.ObjectGroup: keptGroupID,
		sandbox.ObjectServiceAccount: keptServiceAccountID, sandbox.ObjectUser: keptUserID, sandbox.ObjectInstance: keptInstanceID,
	} {
		assert.Contains(t, made[kind], id, kind)
	}

	assert.Contains(t, h.Sandbox.ProjectReferences(sandbox.ProjectID), "compute instance "+keptInstanceID)
	assert.Contains(t, h.Sandbox.ProjectReferences(sandbox.ProjectID), "region network "+keptNetworkID)
}
