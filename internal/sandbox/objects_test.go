package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// made lists the objects that are not fixtures, through the control client.
func (h *harness) made() []Object {
	h.t.Helper()

	objects, err := NewControlClient(h.url, DefaultToken, nil).Objects(h.t.Context(), false)
	require.NoError(h.t, err)

	return objects
}

func TestObjectsTellFixturesFromWhatWasMade(t *testing.T) {
	h := newHarness(t)

	all, err := NewControlClient(h.url, DefaultToken, nil).Objects(t.Context(), true)
	require.NoError(t, err)

	kinds := map[string]int{}

	for _, object := range all {
		assert.True(t, object.Fixture, "%+v", object)
		kinds[object.Kind]++
	}

	assert.Equal(t, map[string]int{
		ObjectNetwork: 3, ObjectAllocation: 3, ObjectSecurityGroup: 3, ObjectSSHCertificateAuthority: 2,
		ObjectProject: 3, ObjectGroup: 2, ObjectUser: 4,
	}, kinds, "the fixture networks are charged to the quota; the organizations have their projects, administrators and users")
	assert.Empty(t, h.made(), "a fresh sandbox holds nothing made")

	network := h.createNetwork("made", "10.9.0.0/24")

	var instance unikorn.Instance

	h.callAs(DefaultToken, http.MethodPost, ComputePrefix+"/api/v2/instances", unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: "web"},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec:   unikorn.InstanceSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID},
			OrganizationID: OrganizationID,
			ProjectID:      ProjectID,
			NetworkID:      NetworkDefaultID,
		},
	}).expect(http.StatusCreated, &instance)

	loadBalancer := h.createLoadBalancer(loadBalancerCreate("lb", NetworkDefaultID, false))
	share := h.createFileStorage(fileStorageCreate("share", 1))

	made := map[string][]string{}

	for _, object := range h.made() {
		assert.False(t, object.Fixture)
		assert.Equal(t, OrganizationID, object.OrganizationID)
		assert.Equal(t, ProjectID, object.ProjectID)
		made[object.Kind] = append(made[object.Kind], object.Name)
	}

	assert.Equal(t, []string{"made"}, made[ObjectNetwork])
	assert.Equal(t, []string{"web"}, made[ObjectInstance])
	assert.Equal(t, []string{"lb"}, made[ObjectLoadBalancer])
	assert.Equal(t, []string{"share"}, made[ObjectFileStorage])
	assert.Len(t, made[ObjectAllocation], 4, "the network's, the instance's, the load balancer's and the file storage's charges")

	h.call(http.MethodDelete, "/api/v2/networks/"+network.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodDelete, "/api/v2/loadbalancers/"+loadBalancer.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodDelete, fileStoragePath+"/"+share.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.callAs(DefaultToken, http.MethodDelete, ComputePrefix+"/api/v2/instances/"+instance.Metadata.ID, nil).expect(http.StatusAccepted, nil)

	// Objects being deleted are still there; compute's passes run at its requests.
	require.NotEmpty(t, h.made())

	for range 5 {
		h.clock.Advance(settle)
		h.callAs(DefaultToken, http.MethodGet, ComputePrefix+"/api/v2/instances", nil).expect(http.StatusOK, nil)
	}

	assert.Empty(t, h.made(), "deleted objects are gone once deleted")

	h.callAs(DefaultToken, http.MethodGet, "/sandbox/v1/objects?fixtures=maybe", nil).expectError(http.StatusBadRequest, "invalid_request")
}

func TestQuotasOptionOverridesTheFixtureQuota(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Quotas = map[string]int{"servers": 1, "gpus": 0} })

	assert.Equal(t, 1, h.quota("servers").Quantity)
	assert.Equal(t, 0, h.quota("gpus").Quantity)
	assert.Equal(t, 5, h.quota("networks").Quantity, "kinds not named keep theirs")

	h.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation("one", 0, 0)).expect(http.StatusCreated, nil)
	h.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation("two", 0, 0)).expectError(http.StatusForbidden, "forbidden")

	for _, quotas := range []map[string]int{{"server": 1}, {"servers": -1}} {
		opts := DefaultOptions()
		opts.Quotas = quotas

		_, err := New(opts)
		assert.Error(t, err, "%v", quotas)
	}
}
