package sandbox

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
func startFromSavedState(t *testing.T) *harness {
	t.Helper()

	data, err := os.ReadFile(filepath.Join("testdata", "state-v3.json"))
	require.NoError(t, err)

	statePath := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(statePath, data, 0o600))

	h := newHarness(t, func(o *Options) { o.StatePath = statePath })
	h.clock.Advance(10 * settle)

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

		h.call(http.MethodGet, object.path, nil).expect(http.StatusOK, &read)
		assert.Equal(t, object.name, read.Metadata.Name, object.path)
		assert.Equal(t, unikorn.ProvisioningProvisioned, read.Metadata.ProvisioningStatus, object.path)
	}

	server := h.getServer(keptServerID)
	assert.Equal(t, unikorn.PowerRunning, server.Status.PowerState)
	assert.NotEmpty(t, server.Status.PublicIP)

	var storage unikorn.FileStorage

	h.call(http.MethodGet, "/api/v2/filestorage/"+keptFileStorageID, nil).expect(http.StatusOK, &storage)
	require.Len(t, storage.Status.Attachments, 1)
	assert.NotEmpty(t, storage.Status.Attachments[0].MountSource, "the share stays mounted on its network")

	images := h.listImagesV2(map[string][]string{"organizationID": {OrganizationID}, "scope": {"owned"}})
	assert.Equal(t, []string{"kept-image"}, imageNames(images))
	assert.Equal(t, keptImageID, images[0].Metadata.ID)

	// Identity's objects.
	h.call(http.MethodGet, allocationsPath(ProjectID)+"/"+keptAllocationID, nil).expect(http.StatusOK, nil)

	var group unikorn.Group

	h.callAs(AdminToken, http.MethodGet, organizationPath("/groups/"+keptGroupID), nil).expect(http.StatusOK, &group)
	assert.Equal(t, []string{keptServiceAccountID}, group.Spec.ServiceAccountIDs)

	var project unikorn.Project

	h.callAs(AdminToken, http.MethodGet, organizationPath("/projects/"+keptProjectID), nil).expect(http.StatusOK, &project)
	assert.Equal(t, []string{keptGroupID}, project.Spec.GroupIDs)

	var accounts []unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodGet, organizationPath("/serviceaccounts"), nil).expect(http.StatusOK, &accounts)
	require.Len(t, accounts, 1)
	assert.Equal(t, keptServiceAccountID, accounts[0].Metadata.ID)
	assert.Equal(t, []string{keptGroupID}, accounts[0].Spec.GroupIDs)

	// The account's token still authenticates, with what its group gives it.
	h.callAs(keptServiceToken, http.MethodGet, "/api/v1/organizations/"+OrganizationID+"/projects/"+keptProjectID, nil).expect(http.StatusOK, nil)

	var users []unikorn.User

	h.callAs(AdminToken, http.MethodGet, organizationPath("/users"), nil).expect(http.StatusOK, &users)

	kept := slices.IndexFunc(users, func(u unikorn.User) bool { return u.Metadata.ID == keptUserID })
	require.GreaterOrEqual(t, kept, 0)
	assert.Equal(t, "kept@example.com", users[kept].Spec.Subject)
	assert.Equal(t, []string{keptGroupID}, users[kept].Spec.GroupIDs)

	var organization unikorn.Organization

	h.call(http.MethodGet, organizationPath(""), nil).expect(http.StatusOK, &organization)
	assert.Equal(t, "kept organization", organization.Metadata.Description)

	assert.Equal(t, 12, h.quota("servers").Quantity)

	var providers []struct {
		Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	}

	h.callAs(AdminToken, http.MethodGet, organizationPath("/oauth2providers"), nil).expect(http.StatusOK, &providers)
	require.Len(t, providers, 1)
	assert.Equal(t, keptProviderID, providers[0].Metadata.ID)

	// Compute's instance, and the server behind it.
	var instance unikorn.Instance

	h.callAs(DefaultToken, http.MethodGet, ComputePrefix+"/api/v2/instances/"+keptInstanceID, nil).expect(http.StatusOK, &instance)
	assert.Equal(t, "kept-instance", instance.Metadata.Name)
	assert.Equal(t, unikorn.ProvisioningProvisioned, instance.Metadata.ProvisioningStatus)

	servers, err := h.sb.InstanceServers(keptInstanceID)
	require.NoError(t, err)
	assert.Len(t, servers, 1)
}

// What the saved objects hold keeps holding: a network in use, a project with objects.
func TestAStateFileKeepsWhatHoldsWhat(t *testing.T) {
	h := startFromSavedState(t)

	h.call(http.MethodDelete, "/api/v2/networks/"+keptNetworkID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.call(http.MethodDelete, "/api/v2/securitygroups/"+keptSecurityGroupID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.call(http.MethodDelete, "/api/v2/sshcertificateauthorities/"+keptSSHCAID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	made := map[string][]string{}

	for _, object := range h.sb.Objects() {
		if !object.Fixture {
			made[object.Kind] = append(made[object.Kind], object.ID)
		}
	}

	for kind, id := range map[string]string{
		ObjectNetwork: keptNetworkID, ObjectSecurityGroup: keptSecurityGroupID, ObjectSSHCertificateAuthority: keptSSHCAID,
		ObjectServer: keptServerID, ObjectLoadBalancer: keptLoadBalancerID, ObjectFileStorage: keptFileStorageID,
		ObjectImage: keptImageID, ObjectAllocation: keptAllocationID, ObjectProject: keptProjectID, ObjectGroup: keptGroupID,
		ObjectServiceAccount: keptServiceAccountID, ObjectUser: keptUserID, ObjectInstance: keptInstanceID,
	} {
		assert.Contains(t, made[kind], id, kind)
	}

	assert.Contains(t, h.sb.ProjectReferences(ProjectID), "compute instance "+keptInstanceID)
	assert.Contains(t, h.sb.ProjectReferences(ProjectID), "region network "+keptNetworkID)
}
