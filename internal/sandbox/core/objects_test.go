package core_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// made lists the objects that are not fixtures, through the control client.
func madeObjects(h *sandboxtest.Harness) []sandbox.Object {
	h.T.Helper()

	objects, err := sandbox.NewControlClient(h.URL, sandbox.DefaultToken, nil).Objects(h.T.Context(), false)
	require.NoError(h.T, err)

	return objects
}

func TestObjectsTellFixturesFromWhatWasMade(t *testing.T) {
	h := sandboxtest.New(t)

	all, err := sandbox.NewControlClient(h.URL, sandbox.DefaultToken, nil).Objects(t.Context(), true)
	require.NoError(t, err)

	kinds := map[string]int{}

	for _, object := range all {
		assert.True(t, object.Fixture, "%+v", object)
		kinds[object.Kind]++
	}

	assert.Equal(t, map[string]int{
		sandbox.ObjectNetwork: 3, sandbox.ObjectAllocation: 3, sandbox.ObjectSecurityGroup: 3, sandbox.ObjectSSHCertificateAuthority: 2,
		sandbox.ObjectProject: 3, sandbox.ObjectGroup: 2, sandbox.ObjectUser: 4,
	}, kinds, "the fixture networks are charged to the quota; the organizations have their projects, administrators and users")
	assert.Empty(t, madeObjects(h), "a fresh sandbox holds nothing made")

	network := h.CreateNetwork("made", "10.9.0.0/24")

	var instance unikorn.Instance

	h.CallAs(sandbox.DefaultToken, http.MethodPost, sandbox.ComputePrefix+"/api/v2/instances", unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: "web"},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			NetworkID:      sandbox.NetworkDefaultID,
		},
	}).Expect(http.StatusCreated, &instance)

	loadBalancer := h.CreateLoadBalancer(sandboxtest.LoadBalancerCreate("lb", sandbox.NetworkDefaultID, false))
	share := h.CreateFileStorage(sandboxtest.FileStorageCreate("share", 1))

	made := map[string][]string{}

	for _, object := range madeObjects(h) {
		assert.False(t, object.Fixture)
		assert.Equal(t, sandbox.OrganizationID, object.OrganizationID)
		assert.Equal(t, sandbox.ProjectID, object.ProjectID)
		made[object.Kind] = append(made[object.Kind], object.Name)
	}

	assert.Equal(t, []string{"made"}, made[sandbox.ObjectNetwork])
	assert.Equal(t, []string{"web"}, made[sandbox.ObjectInstance])
	assert.Equal(t, []string{"lb"}, made[sandbox.ObjectLoadBalancer])
	assert.Equal(t, []string{"share"}, made[sandbox.ObjectFileStorage])
	assert.Len(t, made[sandbox.ObjectAllocation], 4, "the network's, the instance's, the load balancer's and the file storage's charges")

	h.Call(http.MethodDelete, "/api/v2/networks/"+network.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodDelete, "/api/v2/loadbalancers/"+loadBalancer.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodDelete, "/api/v2/filestorage"+"/"+share.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.CallAs(sandbox.DefaultToken, http.MethodDelete, sandbox.ComputePrefix+"/api/v2/instances/"+instance.Metadata.ID, nil).Expect(http.StatusAccepted, nil)

	// Objects being deleted are still there; compute's passes run at its requests.
	require.NotEmpty(t, madeObjects(h))

	for range 5 {
		h.Clock.Advance(sandboxtest.Settle)
		h.CallAs(sandbox.DefaultToken, http.MethodGet, sandbox.ComputePrefix+"/api/v2/instances", nil).Expect(http.StatusOK, nil)
	}

	assert.Empty(t, madeObjects(h), "deleted objects are gone once deleted")

	h.CallAs(sandbox.DefaultToken, http.MethodGet, "/sandbox/v1/objects?fixtures=maybe", nil).ExpectError(http.StatusBadRequest, "invalid_request")
}

func TestQuotasOptionOverridesTheFixtureQuota(t *testing.T) {
	h := sandboxtest.New(t, func(o *sandbox.Options) { o.Quotas = map[string]int{"servers": 1, "gpus": 0} })

	assert.Equal(t, 1, h.Quota("servers").Quantity)
	assert.Equal(t, 0, h.Quota("gpus").Quantity)
	assert.Equal(t, 5, h.Quota("networks").Quantity, "kinds not named keep theirs")

	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("one", 0, 0)).Expect(http.StatusCreated, nil)
	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("two", 0, 0)).ExpectError(http.StatusForbidden, "forbidden")

	for _, quotas := range []map[string]int{{"server": 1}, {"servers": -1}} {
		opts := sandbox.DefaultOptions()
		opts.Quotas = quotas

		_, err := sandbox.New(opts)
		assert.Error(t, err, "%v", quotas)
	}
}
