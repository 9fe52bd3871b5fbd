package instance_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// newVolume makes a volume of the class on the network as the project user.
func (h *harness) newVolume(t *testing.T, name, networkID, classID string) string {
	t.Helper()

	volume, err := h.user.CreateVolume(t.Context(), unikorn.VolumeCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec:     unikorn.VolumeSpec{NetworkID: networkID, VolumeClassID: classID, SizeGiB: 10},
	})
	require.NoError(t, err)

	return volume.Metadata.ID
}

// attachedAs reads the instance until each of its attachment rows has settled, and
// returns the rows.
func (h *harness) attachedAs(t *testing.T, id string) []unikorn.InstanceVolumeStatus {
	t.Helper()

	for range 8 {
		in, err := h.user.GetInstance(t.Context(), id)
		require.NoError(t, err)

		if !slices.ContainsFunc(in.Status.Volumes, func(row unikorn.InstanceVolumeStatus) bool {
			return row.ProvisioningStatus != unikorn.ProvisioningProvisioned
		}) && in.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned {
			return in.Status.Volumes
		}
	}

	require.FailNow(t, "the instance's attachments never settled")

	return nil
}

func withVolumes(create unikorn.InstanceCreate, ids ...string) unikorn.InstanceCreate {
	create.Spec.Volumes = &ids

	return create
}

func TestAnInstanceAttachesTheWholeSetItNames(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	first := h.newVolume(t, "first", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID)
	second := h.newVolume(t, "second", sandbox.NetworkDefaultID, sandbox.VolumeClassFastID)

	created, err := h.user.CreateInstance(ctx, withVolumes(newCreate("db"), first))
	require.NoError(t, err)

	id := created.Metadata.ID
	assert.Equal(t, []unikorn.InstanceVolumeStatus{{ID: first, ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdb", Message: "volume attached"}},
		h.attachedAs(t, id))

	servers := h.backing(t, id)
	require.Len(t, servers, 1)
	assert.Equal(t, []unikorn.ServerVolume{{ID: first}}, servers[0].Spec.Volumes, "the hidden server asks for the set")

	in, err := h.user.GetInstance(ctx, id)
	require.NoError(t, err)

	// A set given replaces the set; an omitted one keeps it.
	update := unikorn.InstanceUpdate{Metadata: in.Metadata.WriteMetadata, Spec: in.Spec}
	update.Spec.Volumes = &[]string{first, second}
	_, err = h.user.UpdateInstance(ctx, id, update)
	require.NoError(t, err)
	assert.Equal(t, []string{first, second}, rowIDs(h.attachedAs(t, id)))

	update.Spec.Volumes = nil
	update.Metadata.Description = "kept"
	updated, err := h.user.UpdateInstance(ctx, id, update)
	require.NoError(t, err)
	assert.Equal(t, &[]string{first, second}, updated.Spec.Volumes)

	// An empty set detaches every volume, and a read leaves the set out.
	update.Spec.Volumes = &[]string{}
	_, err = h.user.UpdateInstance(ctx, id, update)
	require.NoError(t, err)
	assert.Empty(t, h.attachedAs(t, id))

	in, err = h.user.GetInstance(ctx, id)
	require.NoError(t, err)
	assert.Nil(t, in.Spec.Volumes)

	volume, err := h.user.GetVolume(ctx, first)
	require.NoError(t, err)
	assert.Nil(t, volume.Status.AttachedAt)
	require.NoError(t, h.user.DeleteVolume(ctx, first), "a detached volume may be deleted")
}

func TestADeletedInstanceLeavesItsVolumesDetached(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	volume := h.newVolume(t, "data", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID)

	created, err := h.user.CreateInstance(ctx, withVolumes(newCreate("db"), volume))
	require.NoError(t, err)
	h.attachedAs(t, created.Metadata.ID)

	require.NoError(t, h.user.DeleteInstance(ctx, created.Metadata.ID))

	for range 8 {
		if _, err := h.user.GetInstance(ctx, created.Metadata.ID); unikorn.IsNotFound(err) {
			break
		}
	}

	kept, err := h.user.GetVolume(ctx, volume)
	require.NoError(t, err)
	assert.Nil(t, kept.Status.AttachedAt)
	assert.Equal(t, unikorn.ProvisioningProvisioned, kept.Metadata.ProvisioningStatus)
}

func TestComputeChecksTheVolumesAnInstanceNames(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()

	standard := h.newVolume(t, "standard", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID)
	fast := h.newVolume(t, "fast", sandbox.NetworkDefaultID, sandbox.VolumeClassFastID)
	elsewhere := h.newVolume(t, "elsewhere", sandbox.NetworkSecondaryID, sandbox.VolumeClassStandardID)
	held := h.newVolume(t, "held", sandbox.NetworkDefaultID, sandbox.VolumeClassStandardID)

	holder, err := h.user.CreateInstance(ctx, withVolumes(newCreate("holder"), held))
	require.NoError(t, err)
	h.attachedAs(t, holder.Metadata.ID)

	tiny := newCreate("tiny")
	tiny.Spec.FlavorID, tiny.Spec.ImageID = sandbox.FlavorTinyID, sandbox.ImageDebianID

	for _, tc := range []struct {
		name   string
		create unikorn.InstanceCreate
		check  func(error) bool
		words  string
	}{
		{"duplicates", withVolumes(newCreate("a"), standard, standard), unikorn.IsUnprocessable, "volumes must not contain duplicate IDs"},
		{"a volume that is not there", withVolumes(newCreate("a"), "f0000000-0000-4000-8000-00000000dead"), unikorn.IsNotFound, ""},
		{"another network", withVolumes(newCreate("a"), elsewhere), unikorn.IsUnprocessable, "a referenced volume must belong to the same network as the instance"},
		{"attached elsewhere", withVolumes(newCreate("a"), held), unikorn.IsUnprocessable, "volumes must not reference attached volumes"},
		{"a flavor the class does not support", withVolumes(tiny, fast), unikorn.IsUnprocessable, "volume class does not support the server flavor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.user.CreateInstance(ctx, tc.create)
			require.True(t, tc.check(err), "got %v", err)

			if tc.words != "" {
				assert.Contains(t, err.Error(), tc.words)
			}
		})
	}

	// Another tenant's volume is not found, not refused: region's 403 becomes 404.
	foreign := h.client(sandbox.ForeignToken)
	_, err = foreign.GetVolume(ctx, standard)
	require.True(t, unikorn.IsForbidden(err), "region refuses it: %v", err)

	network := sandboxtest.NetworkCreate("foreign", "10.50.0.0/24")
	network.Spec.OrganizationID, network.Spec.ProjectID = sandbox.ForeignOrganizationID, sandbox.ForeignProjectID
	foreignNetwork, err := foreign.CreateNetwork(ctx, network)
	require.NoError(t, err)

	theirs := withVolumes(newCreate("theirs"), standard)
	theirs.Spec.OrganizationID, theirs.Spec.ProjectID, theirs.Spec.NetworkID = sandbox.ForeignOrganizationID, sandbox.ForeignProjectID, foreignNetwork.Metadata.ID
	theirs.Spec.Networking = nil
	_, err = foreign.CreateInstance(ctx, theirs)
	require.True(t, unikorn.IsNotFound(err), "got %v", err)

	// An update that keeps the set but changes the flavor checks the volumes it keeps.
	debian := newCreate("kept")
	debian.Spec.ImageID = sandbox.ImageDebianID
	kept, err := h.user.CreateInstance(ctx, withVolumes(debian, fast))
	require.NoError(t, err)
	h.attachedAs(t, kept.Metadata.ID)

	update := unikorn.InstanceUpdate{Metadata: kept.Metadata.WriteMetadata, Spec: kept.Spec}
	update.Spec.Volumes, update.Spec.FlavorID = nil, sandbox.FlavorTinyID
	_, err = h.user.UpdateInstance(ctx, kept.Metadata.ID, update)
	require.True(t, unikorn.IsUnprocessable(err), "got %v", err)
	assert.Contains(t, err.Error(), "volume class does not support the server flavor")

	assert.Equal(t, 2, h.computeAllocations(), "the refused creates charged nothing")
}

func rowIDs(rows []unikorn.InstanceVolumeStatus) []string {
	ids := make([]string, 0, len(rows))
	for _, row := range rows {
		ids = append(ids, row.ID)
	}

	return ids
}

func TestComputeRefusesAVolumeBeingDeleted(t *testing.T) {
	h := sandboxtest.New(t)

	var volume unikorn.Volume

	h.CallAs(sandbox.DefaultToken, http.MethodPost, "/api/v2/volumes", unikorn.VolumeCreate{
		Metadata: unikorn.WriteMetadata{Name: "going"},
		Spec:     unikorn.VolumeSpec{NetworkID: sandbox.NetworkDefaultID, VolumeClassID: sandbox.VolumeClassStandardID, SizeGiB: 1},
	}).Expect(http.StatusAccepted, &volume)
	h.Clock.Advance(sandboxtest.Settle)
	h.CallAs(sandbox.DefaultToken, http.MethodDelete, "/api/v2/volumes/"+volume.Metadata.ID, nil).Expect(http.StatusAccepted, nil)

	body := h.CallAs(sandbox.DefaultToken, http.MethodPost, instance.Prefix+"/api/v2/instances", withVolumes(newCreate("db"), volume.Metadata.ID)).
		ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
	assert.Equal(t, "volume is being deleted", body.ErrorDescription)
}
