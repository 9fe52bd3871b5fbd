package volumes

import (
	"reflect"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Region's attachments (the server provisioner and the volume provisioner of the v1.25
// line): a server asks for volumes in its spec; each volume a server asks for is
// claimed for it unless another holds the claim (then the server's row stays
// provisioning until the claim is let go), and attached once both the volume and the
// server are provisioned, with the next free device of the server; a volume the server
// no longer asks for, or whose server is being deleted, is detached and its claim let
// go; a server that is gone holds no claim. The volume family keeps the claims and
// writes each server's status.volumes, as region's volume provisioner projects its
// attachment onto the server.

// Messages of a server's attachment rows, as region's provisioners word them.
const (
	messageWaiting  = "waiting for volume to be provisioned"
	messageAttached = "volume attached"
	messageDetach   = "volume detaching"
)

// delays are how long an attachment and a detachment take: half the sandbox's
// provisioning and deprovisioning delays, so that a server being deleted lets its
// volumes go before it is gone, as region's server deprovisioner detaches them first.
type delays struct {
	attach, detach time.Duration
}

// attach moves every claim on, makes the claims servers ask for, and writes the servers'
// attachment rows. It reports whether anything changed.
func attach(st *core.Store, now time.Time, delays delays) bool {
	changed := false
	asked := askedFor(st)

	for _, id := range core.SortedKeys(volumes.Records(st)) {
		r := volumes.Records(st)[id]

		if claimOn(st, r, asked[id], now, delays) {
			changed = true
		}
	}

	for _, server := range core.All[unikorn.Server](st) {
		rows := rowsOf(st, server)
		if !reflect.DeepEqual(rows, server.Status.Volumes) {
			server.Status.Volumes = rows
			changed = true
		}
	}

	return changed
}

// askedFor are the servers, by volume, that ask for it and are not being deleted, in ID
// order: the first claims a free volume.
func askedFor(st *core.Store) map[string][]string {
	asked := map[string][]string{}

	for id, server := range core.All[unikorn.Server](st) {
		if server.Metadata.DeletionTime != nil {
			continue
		}

		for _, volume := range server.Spec.Volumes {
			asked[volume.ID] = append(asked[volume.ID], id)
		}
	}

	return asked
}

// claimOn moves one volume's claim on: its due transitions, a detach once its server
// no longer asks for it, an attach once volume and server are provisioned, or a new
// claim for the first server that asks.
func claimOn(st *core.Store, r *record, askers []string, now time.Time, delays delays) bool {
	c := r.Claim
	if c == nil {
		if len(askers) == 0 || r.Volume.Metadata.DeletionTime != nil {
			return false
		}

		r.Claim = &claim{ServerID: askers[0], Since: now.UTC().Truncate(time.Second), Status: unikorn.ProvisioningProvisioning}

		return true
	}

	changed := false

	for _, to := range c.Lifecycle.Due(now) {
		changed = true

		if to == core.ToGone {
			r.Claim = nil

			return true
		}

		c.Status = to
		if to == unikorn.ProvisioningProvisioned {
			c.Device = nextDevice(st, r.Volume.Metadata.ID, c.ServerID)
		}
	}

	server, exists := core.Get[unikorn.Server](st, c.ServerID)

	switch {
	case !exists:
		// The server is gone: its deprovisioning detached the volume before it went.
		r.Claim = nil

		return true
	case c.Status != unikorn.ProvisioningDeprovisioning && !slices.Contains(askers, c.ServerID):
		c.Status = unikorn.ProvisioningDeprovisioning
		c.Lifecycle = core.Schedule{{To: core.ToGone, Due: now.Add(delays.detach)}}

		return true
	case c.Status == unikorn.ProvisioningProvisioning && len(c.Lifecycle) == 0 &&
		r.Volume.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned &&
		server.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned:
		c.Lifecycle = core.Schedule{{To: unikorn.ProvisioningProvisioned, Due: now.Add(delays.attach)}}

		return true
	}

	return changed
}

// nextDevice is the first device name no other volume attached to the server has:
// /dev/vdb on, the first disk being the server's own.
func nextDevice(st *core.Store, volumeID, serverID string) string {
	taken := map[string]bool{}

	for id, r := range volumes.Records(st) {
		if id != volumeID && r.Claim != nil && r.Claim.ServerID == serverID {
			taken[r.Claim.Device] = true
		}
	}

	for letter := 'b'; ; letter++ {
		if device := "/dev/vd" + string(letter); !taken[device] {
			return device
		}
	}
}

// rowsOf are a server's attachment rows: one per volume it asks for, in its order (the
// claim's progress, or provisioning while the volume is not its to attach), then one
// per volume it still holds being detached.
func rowsOf(st *core.Store, server *unikorn.Server) []unikorn.ServerVolumeStatus {
	var rows []unikorn.ServerVolumeStatus

	claims := map[string]*claim{}

	for id, r := range volumes.Records(st) {
		if r.Claim != nil && r.Claim.ServerID == server.Metadata.ID {
			claims[id] = r.Claim
		}
	}

	for _, asked := range server.Spec.Volumes {
		c, ok := claims[asked.ID]
		if !ok || c.Status == unikorn.ProvisioningDeprovisioning {
			rows = append(rows, unikorn.ServerVolumeStatus{ID: asked.ID, ProvisioningStatus: unikorn.ProvisioningProvisioning, Message: messageWaiting})

			continue
		}

		rows = append(rows, row(asked.ID, c))
		delete(claims, asked.ID)
	}

	for _, id := range core.SortedKeys(claims) {
		if slices.ContainsFunc(rows, func(r unikorn.ServerVolumeStatus) bool { return r.ID == id }) {
			continue
		}

		rows = append(rows, row(id, claims[id]))
	}

	return rows
}

// row is one claim as a server's attachment row.
func row(id string, c *claim) unikorn.ServerVolumeStatus {
	out := unikorn.ServerVolumeStatus{ID: id, ProvisioningStatus: c.Status, Message: messageWaiting}

	switch c.Status {
	case unikorn.ProvisioningProvisioned:
		out.Device, out.Message = c.Device, messageAttached
	case unikorn.ProvisioningDeprovisioning:
		out.Message = messageDetach
	}

	return out
}
