// Package server is region's servers (pkg/handler/server): the cloud's machines, a
// service-to-service API that region grants compute's principal and no user. A server
// stands on its network, security groups, SSH CA and image, which it holds in use,
// and holds ports on its network and in the public pool. Other families read servers
// as unikorn.Server.
package server

import (
	"net/http"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's servers.
var Family = core.Family{Name: "server", Register: register}

const (
	// ObjectKind is a server's kind among the objects the sandbox holds.
	ObjectKind = "server"

	rbacServers = "region:servers"
)

// record is a server as region keeps it.
type record struct {
	Server    unikorn.Server `json:"server"`
	Lifecycle core.Schedule  `json:"lifecycle,omitempty"`
	// Power is the pending power transition (Stopping → Stopped, Pending → Running).
	Power core.Schedule `json:"power,omitempty"`
	// Rebuild says the provisioning in progress recreates the cloud server, because
	// the flavor or image changed: disk and addresses are lost.
	Rebuild bool `json:"rebuild,omitempty"`
}

var servers = &core.Kind[record]{
	Name:       "servers",
	Noun:       "region server",
	Project:    func(r *record) *unikorn.ProjectScopedMetadata { return &r.Server.Metadata },
	ObjectKind: ObjectKind,
	References: func(r *record) []core.Ref {
		server := &r.Server
		refs := []core.Ref{
			core.RefTo[unikorn.Network](server.Status.NetworkID),
			core.RefTo[unikorn.Image](server.Spec.ImageID),
		}

		if id := server.Status.SSHCertificateAuthorityID; id != "" {
			refs = append(refs, core.RefTo[unikorn.SSHCertificateAuthority](id))
		}

		if server.Spec.Networking != nil {
			for _, id := range server.Spec.Networking.SecurityGroups {
				refs = append(refs, core.RefTo[unikorn.SecurityGroup](id))
			}
		}

		return refs
	},
	Ports: func(r *record) []core.Port {
		status := r.Server.Status

		return []core.Port{{NetworkID: status.NetworkID, Address: status.PrivateIP}, {Address: status.PublicIP}}
	},
}

// handlers serve region's servers API (pkg/handler/server client_v2.go).
type handlers struct {
	s *core.Server
	// tags indexes the servers by tag for lists by tag.
	tags *serverTags
}

func register(s *core.Server) error {
	core.Register(s, servers)
	core.Expose(s, servers, core.View[record, unikorn.Server]{
		Show: func(r *record) *unikorn.Server { return &r.Server },
	})

	h := &handlers{s: s}
	s.HandleService(rbacServers, "GET /api/v2/servers", h.list)
	s.HandleService(rbacServers, "POST /api/v2/servers", h.create)
	s.HandleService(rbacServers, "GET /api/v2/servers/{serverID}", h.get)
	s.HandleService(rbacServers, "PUT /api/v2/servers/{serverID}", h.update)
	s.HandleService(rbacServers, "DELETE /api/v2/servers/{serverID}", h.delete)
	s.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/start", h.power(startAction))
	s.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/stop", h.power(stopAction))
	s.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/softreboot", h.power(rebootAction))
	s.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/hardreboot", h.power(rebootAction))
	s.HandleService(rbacServers, "GET /api/v2/servers/{serverID}/sshkey", h.sshKey)
	s.HandleService(rbacServers, "GET /api/v2/servers/{serverID}/consolesessions", h.consoleSession)
	s.HandleService(rbacServers, "GET /api/v2/servers/{serverID}/consoleoutput", h.consoleOutput)
	s.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/snapshot", h.snapshot)

	s.HandleControl("POST /sandbox/v1/servers/{serverID}/fail", func(r *http.Request) (*core.Reply, error) {
		if err := Fail(s, r.PathValue("serverID")); err != nil {
			return nil, err
		}

		return core.NoContent(), nil
	})

	s.Advance(advance)

	return nil
}

// Fail makes a server's provisioning fail, as a cloud failure would: its status
// becomes error and stays so until it is updated or deleted.
func Fail(s *core.Server, id string) error {
	return s.Change(func(st *core.Store, _ time.Time) error {
		r, ok := servers.Get(st, id)
		if !ok {
			return core.NotFound()
		}

		metadata := &r.Server.Metadata.ReadMetadata
		metadata.ProvisioningStatus = unikorn.ProvisioningError
		metadata.HealthStatus = unikorn.HealthError

		// A deletion in progress still completes; anything else stops where it is.
		if metadata.DeletionTime == nil {
			r.Lifecycle = nil
			r.Rebuild = false
		}

		return nil
	})
}

// advance applies the servers' due provisioning and power transitions.
func advance(st *core.Store, now time.Time) bool {
	changed := false
	records := servers.Records(st)

	for id, r := range records {
		serverChanged, gone := advanceServer(st, r, now)
		if serverChanged {
			changed = true
		}

		if gone {
			delete(records, id)
		}
	}

	return changed
}

// advanceServer applies a server's due provisioning and power transitions.
func advanceServer(st *core.Store, r *record, now time.Time) (changed, gone bool) {
	status := &r.Server.Status

	for _, to := range r.Lifecycle.Due(now) {
		changed = true

		switch to {
		case core.ToGone:
			return true, true
		case unikorn.ProvisioningProvisioning:
			if r.Rebuild {
				status.PrivateIP, status.PublicIP, status.MACAddress = "", "", ""
				status.PowerState = unikorn.PowerBuilding
			} else if status.PowerState == "" {
				status.PowerState = unikorn.PowerBuilding
			}
		case unikorn.ProvisioningProvisioned:
			realize(st, r)
		}

		core.ApplyProvisioning(&r.Server.Metadata.ReadMetadata, to)
	}

	for _, to := range r.Power.Due(now) {
		changed = true
		status.PowerState = to
	}

	return changed, false
}

// realize is the cloud server coming up: it gets addresses it lacks, loses a
// public address it no longer asks for, and boots unless it was stopped.
func realize(st *core.Store, r *record) {
	server := &r.Server
	r.Rebuild = false

	if server.Status.PrivateIP == "" {
		server.Status.PrivateIP = core.AllocateAddress(st, server.Status.NetworkID)
		server.Status.MACAddress = core.NextMAC(st)
	}

	wantsPublicIP := server.Spec.Networking != nil && server.Spec.Networking.PublicIP

	switch {
	case wantsPublicIP && server.Status.PublicIP == "":
		server.Status.PublicIP = core.AllocatePublicAddress(st)
	case !wantsPublicIP:
		server.Status.PublicIP = ""
	}

	if server.Status.PowerState == "" || server.Status.PowerState == unikorn.PowerBuilding {
		server.Status.PowerState = unikorn.PowerRunning
	}
}
