package volumes

import (
	"maps"
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

	for _, id := range attachOrder(st) {
		if claimOn(st, volumes.Records(st)[id], asked[id], now, delays) {
			changed = true
		}
	}

	// The claims by server, so that writing the rows costs what the volumes and the
	// servers hold, not their product.
	held := map[string]map[string]*claim{}

	for id, r := range volumes.Records(st) {
		if r.Claim != nil {
			if held[r.Claim.ServerID] == nil {
				held[r.Claim.ServerID] = map[string]*claim{}
			}

			held[r.Claim.ServerID][id] = r.Claim
		}
	}

	for _, server := range core.All[unikorn.Server](st) {
		claims := held[server.Metadata.ID]
		if len(claims) == 0 && len(server.Spec.Volumes) == 0 && len(server.Status.Volumes) == 0 {
			continue
		}

		rows := rowsOf(server, claims)
		if !reflect.DeepEqual(rows, server.Status.Volumes) {
			server.Status.Volumes = rows
			changed = true
		}
	}

	return changed
}

// attachOrder is the volumes in the order their claims move on: each server's in the
// order it asks for them, so that its devices follow that order, then the rest.
func attachOrder(st *core.Store) []string {
	records := volumes.Records(st)
	order := make([]string, 0, len(records))
	seen := map[string]bool{}

	for _, server := range core.All[unikorn.Server](st) {
		for _, volume := range server.Spec.Volumes {
			if _, exists := records[volume.ID]; exists && !seen[volume.ID] {
				seen[volume.ID] = true
				order = append(order, volume.ID)
			}
		}
	}

	for _, id := range core.SortedKeys(records) {
		if !seen[id] {
			order = append(order, id)
		}
	}

	return order
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

// claimOn moves one volume's claim on, as far as it goes at now: its due transitions,
// a claim let go when its server is gone, a new claim for the first server that asks
// for a free volume, a detach once the server no longer asks for it, an attach once
// volume and server are provisioned.
func claimOn(st *core.Store, r *record, askers []string, now time.Time, delays delays) bool {
	changed := false

	if c := r.Claim; c != nil {
		for _, to := range c.Lifecycle.Due(now) {
			changed = true

			if to == core.ToGone {
				r.Claim = nil

				break
			}

			c.Status = to
			if to == unikorn.ProvisioningProvisioned {
				c.Device = nextDevice(st, r.Volume.Metadata.ID, c.ServerID)
			}
		}
	}

	if c := r.Claim; c != nil {
		if _, exists := core.Get[unikorn.Server](st, c.ServerID); !exists {
			// The server is gone: its deprovisioning detached the volume before it went.
			r.Claim = nil
			changed = true
		}
	}

	if r.Claim == nil {
		if len(askers) == 0 || r.Volume.Metadata.DeletionTime != nil {
			return changed
		}

		r.Claim = &claim{ServerID: askers[0], Since: now.UTC().Truncate(time.Second), Status: unikorn.ProvisioningProvisioning}
		changed = true
	}

	c := r.Claim
	server, _ := core.Get[unikorn.Server](st, c.ServerID)

	switch {
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
func rowsOf(server *unikorn.Server, held map[string]*claim) []unikorn.ServerVolumeStatus {
	var rows []unikorn.ServerVolumeStatus

	claims := maps.Clone(held)

	// A server being deleted asks for nothing: it only lets go what it holds.
	asking := server.Spec.Volumes
	if server.Metadata.DeletionTime != nil {
		asking = nil
	}

	for _, asked := range asking {
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
