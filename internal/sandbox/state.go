package sandbox

import (
	"encoding/json"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

type serverRecord struct {
	Server    unikorn.Server `json:"server"`
	Lifecycle schedule       `json:"lifecycle,omitempty"`
	// Power is the pending power transition (Stopping → Stopped, Pending → Running).
	Power schedule `json:"power,omitempty"`
	// Rebuild says the provisioning in progress recreates the cloud server, because
	// the flavor or image changed: disk and addresses are lost.
	Rebuild bool `json:"rebuild,omitempty"`
}

type loadBalancerRecord struct {
	LoadBalancer unikorn.LoadBalancer `json:"loadBalancer"`
	Lifecycle    schedule             `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the load balancer to the quota.
	AllocationID string `json:"allocationId"`
	// RequestedVIP is the virtual IP the create asked for; empty lets the network choose.
	RequestedVIP string `json:"requestedVip,omitempty"`
}

// The kinds of the families still in this package.
var (
	servers = &core.Kind[serverRecord]{
		Name: "servers", Noun: "region server",
		Object: func(_ *core.Store, r *serverRecord) core.Object {
			return core.ProjectObject(ObjectServer, &r.Server.Metadata)
		},
		References: func(r *serverRecord) []core.Ref {
			server := &r.Server
			refs := []core.Ref{
				core.RefTo[unikorn.Project](server.Metadata.ProjectID),
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
		Ports: func(r *serverRecord) []core.Port {
			status := r.Server.Status

			return []core.Port{{NetworkID: status.NetworkID, Address: status.PrivateIP}, {Address: status.PublicIP}}
		},
	}
	loadBalancers = &core.Kind[loadBalancerRecord]{
		Name: "loadBalancers", Noun: "region load balancer",
		Object: func(_ *core.Store, r *loadBalancerRecord) core.Object {
			return core.ProjectObject(ObjectLoadBalancer, &r.LoadBalancer.Metadata)
		},
		References: func(r *loadBalancerRecord) []core.Ref {
			return []core.Ref{core.RefTo[unikorn.Project](r.LoadBalancer.Metadata.ProjectID)}
		},
		Owner: func(r *loadBalancerRecord) core.Ref {
			return core.RefTo[unikorn.Network](r.LoadBalancer.Status.NetworkID)
		},
		Life: func(r *loadBalancerRecord) (*unikorn.ReadMetadata, *core.Schedule) {
			return &r.LoadBalancer.Metadata.ReadMetadata, &r.Lifecycle
		},
		Ports: func(r *loadBalancerRecord) []core.Port {
			status := r.LoadBalancer.Status

			return []core.Port{
				{NetworkID: status.NetworkID, Address: status.VIPAddress},
				{NetworkID: status.NetworkID, Address: r.RequestedVIP, Requested: true},
				{Address: status.PublicIP},
			}
		},
	}
	fileStorage = &core.Kind[fileStorageRecord]{
		Name: "fileStorage", Noun: "region file storage",
		Object: func(_ *core.Store, r *fileStorageRecord) core.Object {
			return core.ProjectObject(ObjectFileStorage, &r.Metadata)
		},
		// Storage exported to a network, or still being removed from it, holds it.
		References: func(r *fileStorageRecord) []core.Ref {
			refs := []core.Ref{core.RefTo[unikorn.Project](r.Metadata.ProjectID)}
			for _, a := range r.Attachments {
				refs = append(refs, core.RefTo[unikorn.Network](a.NetworkID))
			}

			return refs
		},
	}
	projects = &core.Kind[projectRecord]{
		Name: "projects",
		Object: func(_ *core.Store, r *projectRecord) core.Object {
			return core.OrganizationObject(ObjectProject, &r.Project.Metadata)
		},
	}
	groups = &core.Kind[unikorn.Group]{
		Name: "groups",
		Object: func(_ *core.Store, g *unikorn.Group) core.Object {
			return core.OrganizationObject(ObjectGroup, &g.Metadata)
		},
	}
	serviceAccounts = &core.Kind[serviceAccountRecord]{
		Name: "serviceAccounts",
		Object: func(_ *core.Store, r *serviceAccountRecord) core.Object {
			return core.OrganizationObject(ObjectServiceAccount, &r.Metadata)
		},
	}
	organizationRecords = &core.Kind[unikorn.Organization]{Name: "organizations"}
	users               = &core.Kind[userRecord]{Name: "users"}
	organizationUsers   = &core.Kind[organizationUserRecord]{
		Name: "organizationUsers",
		Object: func(st *core.Store, r *organizationUserRecord) core.Object {
			object := core.OrganizationObject(ObjectUser, &r.Metadata)
			// Named by subject: an organization user's own name is identity's "undefined".
			if user, ok := users.Get(st, r.UserID); ok {
				object.Name = user.Subject
			}

			return object
		},
	}
	oauth2Providers = &core.Kind[oauth2Provider]{Name: "oauth2Providers"}
	computeState    = &core.Section[json.RawMessage]{Name: "compute"}
)

// world is the families' records in a store, by kind: the store's own maps, so that
// what changes them changes the store.
type world struct {
	st                *core.Store
	Servers           map[string]*serverRecord
	LoadBalancers     map[string]*loadBalancerRecord
	Allocations       map[string]*unikorn.Allocation
	FileStorage       map[string]*fileStorageRecord
	Projects          map[string]*projectRecord
	Groups            map[string]*unikorn.Group
	ServiceAccounts   map[string]*serviceAccountRecord
	Organizations     map[string]*unikorn.Organization
	Users             map[string]*userRecord
	OrganizationUsers map[string]*organizationUserRecord
	OAuth2Providers   map[string]*oauth2Provider
}

func worldOf(st *core.Store) *world {
	return &world{
		st:                st,
		Servers:           servers.Records(st),
		LoadBalancers:     loadBalancers.Records(st),
		Allocations:       core.Allocations.Records(st),
		FileStorage:       fileStorage.Records(st),
		Projects:          projects.Records(st),
		Groups:            groups.Records(st),
		ServiceAccounts:   serviceAccounts.Records(st),
		Organizations:     organizationRecords.Records(st),
		Users:             users.Records(st),
		OrganizationUsers: organizationUsers.Records(st),
		OAuth2Providers:   oauth2Providers.Records(st),
	}
}

// advanceRegion applies every transition of region's families still here that has
// fallen due by now and reports whether anything changed.
func advanceRegion(st *core.Store, now time.Time) bool {
	w := worldOf(st)
	changed := false

	for id, record := range w.Servers {
		serverChanged, gone := w.advanceServer(record, now)
		if serverChanged {
			changed = true
		}

		if gone {
			delete(w.Servers, id)
		}
	}

	if w.advanceLoadBalancers(now) {
		changed = true
	}

	if w.advanceFileStorage(now) {
		changed = true
	}

	return changed
}

// advanceServer applies a server's due provisioning and power transitions.
func (w *world) advanceServer(record *serverRecord, now time.Time) (changed, gone bool) {
	status := &record.Server.Status

	for _, to := range record.Lifecycle.Due(now) {
		changed = true

		switch to {
		case toGone:
			return true, true
		case unikorn.ProvisioningProvisioning:
			if record.Rebuild {
				status.PrivateIP, status.PublicIP, status.MACAddress = "", "", ""
				status.PowerState = unikorn.PowerBuilding
			} else if status.PowerState == "" {
				status.PowerState = unikorn.PowerBuilding
			}
		case unikorn.ProvisioningProvisioned:
			w.realizeServer(record)
		}

		applyProvisioning(&record.Server.Metadata.ReadMetadata, to)
	}

	for _, to := range record.Power.Due(now) {
		changed = true
		status.PowerState = to
	}

	return changed, false
}

// realizeServer is the cloud server coming up: it gets addresses it lacks, loses a
// public address it no longer asks for, and boots unless it was stopped.
func (w *world) realizeServer(record *serverRecord) {
	server := &record.Server
	record.Rebuild = false

	if server.Status.PrivateIP == "" {
		server.Status.PrivateIP = core.AllocateAddress(w.st, server.Status.NetworkID)
		server.Status.MACAddress = core.NextMAC(w.st)
	}

	wantsPublicIP := server.Spec.Networking != nil && server.Spec.Networking.PublicIP

	switch {
	case wantsPublicIP && server.Status.PublicIP == "":
		server.Status.PublicIP = core.AllocatePublicAddress(w.st)
	case !wantsPublicIP:
		server.Status.PublicIP = ""
	}

	if server.Status.PowerState == "" || server.Status.PowerState == unikorn.PowerBuilding {
		server.Status.PowerState = unikorn.PowerRunning
	}
}
