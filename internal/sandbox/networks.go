package sandbox

import (
	"net/netip"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// minimumNetworkBits is the longest network prefix region accepts: /24 or larger.
const minimumNetworkBits = 24

// defaultReservations is the platform default applied when a create omits them: a /25
// reservation with a /28 provider carve-out.
func defaultReservations() *unikorn.NetworkReservations {
	providerReserved := 28

	return &unikorn.NetworkReservations{PrefixLength: 25, ProviderReservedPrefixLength: &providerReserved}
}

func networkMetadata(record *networkRecord) *unikorn.ProjectScopedMetadata {
	return &record.Network.Metadata
}

func (s *Sandbox) lookupNetwork(req *request, id, endpoint, operation string) (*networkRecord, error) {
	return lookup(s.world.Networks, id, req.caller, networkMetadata, endpoint, operation)
}

func (s *Sandbox) listNetworks(req *request) (*reply, error) {
	q, err := parseListQuery(req.Request, req.caller)
	if err != nil {
		return nil, err
	}

	return replyOK(selectList(q, req.caller, s.world.Networks, func(record *networkRecord) (unikorn.Network, listing) {
		return record.Network, projectListing(&record.Network.Metadata, record.Network.Status.RegionID, "")
	})), nil
}

// networkSpecRequired is the required part of region `networkV2Spec`.
var networkSpecRequired = []string{"spec", "spec.dnsNameservers", "spec.routes[].prefix", "spec.routes[].nexthop"}

func validateNetworkSpec(spec unikorn.NetworkSpec) error {
	for _, nameserver := range spec.DNSNameservers {
		if address, err := netip.ParseAddr(nameserver); err != nil || !address.Is4() {
			return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/dnsNameservers\": %q is not an IPv4 address", nameserver)
		}
	}

	return nil
}

func (s *Sandbox) createNetwork(req *request) (*reply, error) {
	var body unikorn.NetworkCreate

	required := requiredWith(append(networkSpecRequired, "spec.organizationId", "spec.projectId", "spec.regionId", "spec.prefix", "spec.reservations?.prefixLength")...)
	if err := decodeBody(req.Request, &body, required...); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateUUID("/spec/regionId", spec.RegionID); err != nil {
		return nil, err
	}

	if err := validateNetworkSpec(spec.NetworkSpec); err != nil {
		return nil, err
	}

	if err := requireProject(s.world, req.caller, spec.OrganizationID, spec.ProjectID, rbacNetworks, opCreate); err != nil {
		return nil, err
	}

	if !regionVisible(req.caller, spec.RegionID) {
		return nil, errNotFound()
	}

	prefix, err := netip.ParsePrefix(spec.Prefix)
	if err != nil || !prefix.Addr().Is4() {
		return nil, errBadRequest("network prefix %q is not an IPv4 CIDR", spec.Prefix)
	}

	if prefix.Bits() > minimumNetworkBits {
		return nil, errBadRequest("minimum network prefix size is /%d", minimumNetworkBits)
	}

	reservations := spec.Reservations
	if reservations == nil {
		reservations = defaultReservations()
	}

	if err := validateReservations(reservations, prefix.Bits()); err != nil {
		return nil, err
	}

	record, err := newNetworkRecord(newResourceID(), body.Metadata, spec.OrganizationID, spec.ProjectID, spec.RegionID,
		spec.NetworkSpec, prefix.Masked().String(), reservations, req.now)
	if err != nil {
		return nil, err
	}

	// Region charges the network to the organization's quota before creating it.
	if err := s.world.chargeNetwork(record, req.now); err != nil {
		return nil, err
	}

	record.Lifecycle = provisionSchedule(req.now, s.provisionDelay)
	s.world.Networks[record.Network.Metadata.ID] = record

	return replyCreated(record.Network), nil
}

func validateReservations(reservations *unikorn.NetworkReservations, networkBits int) error {
	inRange := func(bits int) bool { return bits >= 0 && bits <= 30 }

	if !inRange(reservations.PrefixLength) ||
		(reservations.ProviderReservedPrefixLength != nil && !inRange(*reservations.ProviderReservedPrefixLength)) {
		return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/reservations\": prefix lengths must be between 0 and 30")
	}

	if reservations.PrefixLength <= networkBits {
		return errUnprocessable("reservation prefix length /%d must be longer than the network prefix /%d", reservations.PrefixLength, networkBits)
	}

	if provider := reservations.ProviderReservedPrefixLength; provider != nil && *provider < reservations.PrefixLength {
		return errUnprocessable("provider reserved prefix length /%d must not be shorter than the reservation prefix length /%d", *provider, reservations.PrefixLength)
	}

	return nil
}

// newNetworkRecord builds a network in pending state with its own cloud identity key pair.
func newNetworkRecord(id string, write unikorn.WriteMetadata, organizationID, projectID, regionID string,
	spec unikorn.NetworkSpec, prefix string, reservations *unikorn.NetworkReservations, now time.Time,
) (*networkRecord, error) {
	privateKey, err := newNetworkKey()
	if err != nil {
		return nil, err
	}

	if spec.DNSNameservers == nil {
		spec.DNSNameservers = []string{}
	}

	return &networkRecord{
		Network: unikorn.Network{
			Metadata: projectMetadata(id, write, organizationID, projectID, now),
			Spec:     spec,
			Status:   unikorn.NetworkStatus{RegionID: regionID, Prefix: prefix, Reservations: reservations},
		},
		PrivateKey: privateKey,
	}, nil
}

// chargeNetwork allocates the network's quota in identity.
func (w *world) chargeNetwork(record *networkRecord, now time.Time) error {
	metadata := record.Network.Metadata

	allocation, err := w.allocate(metadata.OrganizationID, metadata.ProjectID, unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{
			Kind:        networkAllocationKind,
			ID:          metadata.ID,
			Allocations: []unikorn.ResourceAllocation{{Kind: "networks", Committed: 1}},
		},
	}, now)
	if err != nil {
		return err
	}

	record.AllocationID = allocation.Metadata.ID

	return nil
}

func (s *Sandbox) getNetwork(req *request) (*reply, error) {
	record, err := s.lookupNetwork(req, req.PathValue("networkID"), rbacNetworks, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(record.Network), nil
}

func (s *Sandbox) updateNetwork(req *request) (*reply, error) {
	var body unikorn.NetworkUpdate
	if err := decodeBody(req.Request, &body, requiredWith(networkSpecRequired...)...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateNetworkSpec(body.Spec); err != nil {
		return nil, err
	}

	record, err := s.lookupNetwork(req, req.PathValue("networkID"), rbacNetworks, opUpdate)
	if err != nil {
		return nil, err
	}

	if record.Network.Metadata.DeletionTime != nil {
		return nil, errBadRequest("network is being deleted")
	}

	rewriteMetadata(&record.Network.Metadata.ReadMetadata, body.Metadata, req.now)
	record.Network.Spec = body.Spec
	record.Lifecycle = reprovisionSchedule(req.now, s.provisionDelay)

	return replyAccepted(record.Network), nil
}

// deleteNetwork deletes a network and, with it, its security groups and load balancers. Servers must be
// deleted first, and file storage detached: while either uses it, the network is in use.
func (s *Sandbox) deleteNetwork(req *request) (*reply, error) {
	id := req.PathValue("networkID")

	record, err := s.lookupNetwork(req, id, rbacNetworks, opDelete)
	if err != nil {
		return nil, err
	}

	for _, server := range s.world.Servers {
		if server.Server.Status.NetworkID == id {
			return nil, errForbidden("network is in use and cannot be deleted")
		}
	}

	// File storage exported to the network holds a reference to it.
	if s.world.fileStorageUses(id) {
		return nil, errForbidden("network is in use and cannot be deleted")
	}

	if markDeleting(&record.Network.Metadata.ReadMetadata, &record.Lifecycle, req.now, s.deprovisionDelay) {
		for _, group := range s.world.SecurityGroups {
			if group.SecurityGroup.Status.NetworkID == id {
				markDeleting(&group.SecurityGroup.Metadata.ReadMetadata, &group.Lifecycle, req.now, s.deprovisionDelay)
			}
		}

		s.world.collectLoadBalancers(id, req.now, s.deprovisionDelay)
	}

	return replyAccepted(nil), nil
}
