package volumes_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// serverWith is a server create body that asks for the volumes given.
func serverWith(name string, volumeIDs ...string) unikorn.ServerCreate {
	create := sandboxtest.ServerCreate(name)
	for _, id := range volumeIDs {
		create.Spec.Volumes = append(create.Spec.Volumes, unikorn.ServerVolume{ID: id})
	}

	return create
}

// setVolumes replaces the volumes a server asks for, keeping the rest of it.
func setVolumes(h *sandboxtest.Harness, server unikorn.Server, volumeIDs ...string) {
	h.T.Helper()

	spec := server.Spec
	spec.Volumes = nil

	for _, id := range volumeIDs {
		spec.Volumes = append(spec.Volumes, unikorn.ServerVolume{ID: id})
	}

	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, unikorn.ServerUpdate{Metadata: server.Metadata.WriteMetadata, Spec: spec}).
		Expect(http.StatusAccepted, nil)
}

func TestAServerAttachesTheVolumesItAsksForAndLetsThemGo(t *testing.T) {
	h := sandboxtest.New(t)

	first, second := createVolume(h, "first", 10), createVolume(h, "second", 10)
	server := h.CreateServer(serverWith("db", first.Metadata.ID, second.Metadata.ID))
	id := server.Metadata.ID

	// Claimed at once, attached once both sides are provisioned.
	h.Clock.Advance(time.Millisecond)

	server = h.GetServer(id)
	assert.Equal(t, []unikorn.ServerVolumeStatus{
		{ID: first.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningProvisioning, Message: "waiting for volume to be provisioned"},
		{ID: second.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningProvisioning, Message: "waiting for volume to be provisioned"},
	}, server.Status.Volumes)
	assert.NotNil(t, getVolume(h, first.Metadata.ID).Status.AttachedAt, "a claimed volume shows when it was attached")

	h.Clock.Advance(sandboxtest.Settle)

	server = h.GetServer(id)
	assert.Equal(t, []unikorn.ServerVolumeStatus{
		{ID: first.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdb", Message: "volume attached"},
		{ID: second.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdc", Message: "volume attached"},
	}, server.Status.Volumes)

	// An attached volume cannot be deleted, in region's word (403), and is kept.
	path := volumesPath + "/" + first.Metadata.ID
	body := h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "volume is attached and must be detached before deletion", body.ErrorDescription)
	assert.Equal(t, unikorn.ProvisioningProvisioned, getVolume(h, first.Metadata.ID).Metadata.ProvisioningStatus)

	// A volume the server no longer asks for is detached, then let go.
	setVolumes(h, server, second.Metadata.ID)
	h.Clock.Advance(time.Millisecond)

	server = h.GetServer(id)
	require.Len(t, server.Status.Volumes, 2)
	assert.Equal(t, unikorn.ServerVolumeStatus{ID: first.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningDeprovisioning, Message: "volume detaching"},
		server.Status.Volumes[1])

	h.Clock.Advance(sandboxtest.Settle)

	server = h.GetServer(id)
	assert.Equal(t, []string{second.Metadata.ID}, rowIDs(server.Status.Volumes))
	assert.Nil(t, getVolume(h, first.Metadata.ID).Status.AttachedAt)
	h.CallAs(sandbox.DefaultToken, http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)

	// A server being deleted lets its volumes go before it is gone; they survive it.
	h.Call(http.MethodDelete, "/api/v2/servers/"+id, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(time.Millisecond)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, h.GetServer(id).Status.Volumes[0].ProvisioningStatus)

	h.Clock.Advance(sandboxtest.Settle)

	kept := getVolume(h, second.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, kept.Metadata.ProvisioningStatus)
	assert.Nil(t, kept.Status.AttachedAt)
}

func TestAVolumeIsClaimedByOneServerAtATime(t *testing.T) {
	h := sandboxtest.New(t)

	volume := createVolume(h, "shared", 10)
	h.Clock.Advance(sandboxtest.Settle)

	holder := h.CreateServer(serverWith("holder", volume.Metadata.ID))
	h.Clock.Advance(sandboxtest.Settle)

	// The second server's row waits while the first holds the claim.
	waiting := h.CreateServer(serverWith("waiting", volume.Metadata.ID))
	h.Clock.Advance(sandboxtest.Settle)

	assert.Equal(t, "/dev/vdb", h.GetServer(holder.Metadata.ID).Status.Volumes[0].Device)
	assert.Equal(t, []unikorn.ServerVolumeStatus{
		{ID: volume.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningProvisioning, Message: "waiting for volume to be provisioned"},
	}, h.GetServer(waiting.Metadata.ID).Status.Volumes)

	// Once the first lets it go, the second claims and attaches it.
	setVolumes(h, h.GetServer(holder.Metadata.ID))
	h.Clock.Advance(sandboxtest.Settle)
	h.Clock.Advance(sandboxtest.Settle)

	assert.Empty(t, h.GetServer(holder.Metadata.ID).Status.Volumes)
	assert.Equal(t, []unikorn.ServerVolumeStatus{
		{ID: volume.Metadata.ID, ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdb", Message: "volume attached"},
	}, h.GetServer(waiting.Metadata.ID).Status.Volumes)
}

func TestANetworkIsHeldByItsVolumes(t *testing.T) {
	h := sandboxtest.New(t)

	network := h.CreateNetwork("data", "10.40.0.0/24")
	h.Clock.Advance(sandboxtest.Settle)

	var volume unikorn.Volume

	h.CallAs(sandbox.DefaultToken, http.MethodPost, volumesPath, volumeCreate("v", network.Metadata.ID, sandbox.VolumeClassStandardID, 1)).
		Expect(http.StatusAccepted, &volume)
	h.Clock.Advance(sandboxtest.Settle)

	networkPath := "/api/v2/networks/" + network.Metadata.ID
	body := h.Call(http.MethodDelete, networkPath, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "network is in use and cannot be deleted", body.ErrorDescription)

	h.CallAs(sandbox.DefaultToken, http.MethodDelete, volumesPath+"/"+volume.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	h.Call(http.MethodDelete, networkPath, nil).Expect(http.StatusAccepted, nil)
}

func rowIDs(rows []unikorn.ServerVolumeStatus) []string {
	ids := make([]string, 0, len(rows))
	for _, row := range rows {
		ids = append(ids, row.ID)
	}

	return ids
}

func TestAFileAGuestWroteOutlivesItsServer(t *testing.T) {
	h := sandboxtest.New(t)

	volume := createVolume(h, "data", 10)
	id := volume.Metadata.ID
	file := sandbox.VolumeFile{Path: "/srv/data/hello", Contents: "kept"}

	require.ErrorContains(t, h.Sandbox.WriteVolumeFile(id, file), "attached to no server", "no guest writes to a free volume")

	server := h.CreateServer(serverWith("writer", id))
	h.Clock.Advance(sandboxtest.Settle)
	h.GetServer(server.Metadata.ID)
	require.NoError(t, h.Sandbox.WriteVolumeFile(id, file))

	h.Call(http.MethodDelete, "/api/v2/servers/"+server.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	reader := h.CreateServer(serverWith("reader", id))
	h.Clock.Advance(sandboxtest.Settle)
	assert.Equal(t, "/dev/vdb", h.GetServer(reader.Metadata.ID).Status.Volumes[0].Device)

	files, err := h.Sandbox.VolumeFiles(id)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"/srv/data/hello": "kept"}, files)
	require.Len(t, h.Sandbox.Volumes(), 1)
	assert.NotNil(t, h.Sandbox.Volumes()[0].Status.AttachedAt, "the administrator sees it attached to the reader")
}
