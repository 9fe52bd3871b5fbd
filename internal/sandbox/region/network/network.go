// Package network is region's networks (pkg/handler/network): layer 3 networks of a
// project in a region, each charged to the `networks` quota, with a cloud identity
// key pair that every server on it shares. A network is held in use by what stands on
// it (servers, file storage attached to it) and takes what it owns along when it goes
// (security groups, load balancers). Other families read networks as unikorn.Network,
// a network's key pair as unikorn.SSHKey, and allocate addresses on its subnet.
package network

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's networks.
var Family = core.Family{Name: "network", Register: register}

const (
	// ObjectKind is a network's kind among the objects the sandbox holds.
	ObjectKind = "network"
	// AllocationKind is the kind region charges a network's quota under.
	AllocationKind = "networks.region.unikorn-cloud.org"

	rbacNetworks = "region:networks:v2"
)

// record is a network as region keeps it.
type record struct {
	Network   unikorn.Network `json:"network"`
	Lifecycle core.Schedule   `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the network to the quota.
	AllocationID string `json:"allocationId"`
	// PrivateKey is the network's cloud identity key pair (OpenSSH PEM), which every
	// server on the network shares.
	PrivateKey string `json:"privateKey"`
	// NextHost is the next-fit cursor of private address allocation.
	NextHost uint32 `json:"nextHost"`
}

var networks = &core.Kind[record]{
	Name: "networks",
	Noun: "region network",
	// Region adds a reference to the project it creates in.
	Project:    func(r *record) *unikorn.ProjectScopedMetadata { return &r.Network.Metadata },
	ObjectKind: ObjectKind,
	Life: func(r *record) (*unikorn.ReadMetadata, *core.Schedule) {
		return &r.Network.Metadata.ReadMetadata, &r.Lifecycle
	},
	Subnet: func(r *record) *core.Subnet {
		return &core.Subnet{Prefix: r.Network.Status.Prefix, Reservations: r.Network.Status.Reservations, NextHost: &r.NextHost}
	},
}

func register(s *core.Server) error {
	core.Register(s, networks)

	core.Expose(s, networks, core.View[record, unikorn.Network]{
		Show: show,
		Place: func(r *record) core.Placement {
			metadata := r.Network.Metadata

			return core.Placement{OrganizationID: metadata.OrganizationID, ProjectID: metadata.ProjectID, RegionID: r.Network.Status.RegionID}
		},
	})

	// The network's cloud identity, which the servers on it hand out.
	core.Expose(s, networks, core.View[record, unikorn.SSHKey]{
		Show: func(r *record) *unikorn.SSHKey {
			if r.PrivateKey == "" {
				return nil
			}

			return &unikorn.SSHKey{PrivateKey: r.PrivateKey}
		},
	})

	h := &handlers{s: s}
	s.Handle("GET /api/v2/networks", h.list)
	s.Handle("POST /api/v2/networks", h.create)
	s.Handle("GET /api/v2/networks/{networkID}", h.get)
	s.Handle("PUT /api/v2/networks/{networkID}", h.update)
	s.Handle("DELETE /api/v2/networks/{networkID}", h.delete)

	s.Fixture(fixtures)
	s.Advance(advance)

	return nil
}

// show is the network as other families read it. A network saved before networks kept
// their reservations shows region's default, which is what it was made with.
func show(r *record) *unikorn.Network {
	if r.Network.Status.Reservations != nil {
		return &r.Network
	}

	network := r.Network
	network.Status.Reservations = DefaultReservations()

	return &network
}

// DefaultReservations is the platform default applied when a create omits them: a /25
// reservation with a /28 provider carve-out.
func DefaultReservations() *unikorn.NetworkReservations {
	providerReserved := 28

	return &unikorn.NetworkReservations{PrefixLength: 25, ProviderReservedPrefixLength: &providerReserved}
}

// newRecord builds a network in pending state with its own cloud identity key pair.
func newRecord(id string, write unikorn.WriteMetadata, organizationID, projectID, regionID string,
	spec unikorn.NetworkSpec, prefix string, reservations *unikorn.NetworkReservations, now time.Time,
) (*record, error) {
	privateKey, err := newKey()
	if err != nil {
		return nil, err
	}

	if spec.DNSNameservers == nil {
		spec.DNSNameservers = []string{}
	}

	return &record{
		Network: unikorn.Network{
			Metadata: core.ProjectMetadata(id, write, organizationID, projectID, now),
			Spec:     spec,
			Status:   unikorn.NetworkStatus{RegionID: regionID, Prefix: prefix, Reservations: reservations},
		},
		PrivateKey: privateKey,
	}, nil
}

// charge allocates the network's quota in identity.
func charge(st *core.Store, r *record, now time.Time) error {
	metadata := r.Network.Metadata

	allocation, err := core.Allocate(st, metadata.OrganizationID, metadata.ProjectID,
		core.Charge(AllocationKind, metadata.ID, unikorn.ResourceAllocation{Kind: "networks", Committed: 1}), now)
	if err != nil {
		return err
	}

	r.AllocationID = allocation.Metadata.ID

	return nil
}

// advance applies the networks' due transitions. Region releases a network's quota
// once the network is gone.
func advance(st *core.Store, now time.Time) bool {
	return networks.Provision(st, now, func(r *record) { core.Allocations.Delete(st, r.AllocationID) })
}

// newKey generates the key pair of a network's cloud identity and returns the private
// key in OpenSSH PEM form, which is what a server's sshkey endpoint hands out.
func newKey() (string, error) {
	_, private, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", fmt.Errorf("generating network key pair: %w", err)
	}

	block, err := ssh.MarshalPrivateKey(private, "")
	if err != nil {
		return "", fmt.Errorf("encoding network key pair: %w", err)
	}

	return string(pem.EncodeToMemory(block)), nil
}
