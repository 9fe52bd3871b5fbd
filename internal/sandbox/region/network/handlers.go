package network

import (
	"net/netip"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// minimumNetworkBits is the longest network prefix region accepts: /24 or larger.
const minimumNetworkBits = 24

// handlers serve region's networks API (pkg/handler/network client_v2.go).
type handlers struct {
	s *core.Server
}

func metadataOf(r *record) *unikorn.ProjectScopedMetadata {
	return &r.Network.Metadata
}

func (h *handlers) lookup(req *core.Request, id, operation string) (*record, error) {
	return core.Lookup(networks.Records(req.Store), id, req.Caller, metadataOf, rbacNetworks, operation)
}

func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	return core.OK(core.SelectList(q, req.Caller, rbacNetworks, networks.Records(req.Store), func(r *record) (unikorn.Network, core.Listing) {
		return r.Network, core.ProjectListing(&r.Network.Metadata, r.Network.Status.RegionID, "")
	})), nil
}

// specRequired is the required part of region `networkV2Spec`.
var specRequired = []string{"spec", "spec.dnsNameservers", "spec.routes[].prefix", "spec.routes[].nexthop"}

func validateSpec(spec unikorn.NetworkSpec) error {
	for _, nameserver := range spec.DNSNameservers {
		if address, err := netip.ParseAddr(nameserver); err != nil || !address.Is4() {
			return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/dnsNameservers\": %q is not an IPv4 address", nameserver)
		}
	}

	return nil
}

func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body unikorn.NetworkCreate

	required := core.RequiredWith(append(specRequired, "spec.organizationId", "spec.projectId", "spec.regionId", "spec.prefix", "spec.reservations?.prefixLength")...)
	if err := core.DecodeBody(req.Request, &body, required...); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := core.ValidateUUID("/spec/regionId", spec.RegionID); err != nil {
		return nil, err
	}

	if err := validateSpec(spec.NetworkSpec); err != nil {
		return nil, err
	}

	if err := core.RequireProject(req.Store, req.Caller, spec.OrganizationID, spec.ProjectID, rbacNetworks, core.OpCreate); err != nil {
		return nil, err
	}

	if _, ok := core.Visible[unikorn.Region](req.Store, req.Caller, spec.RegionID); !ok {
		return nil, core.NotFound()
	}

	prefix, err := netip.ParsePrefix(spec.Prefix)
	if err != nil || !prefix.Addr().Is4() {
		return nil, core.BadRequest("network prefix %q is not an IPv4 CIDR", spec.Prefix)
	}

	if prefix.Bits() > minimumNetworkBits {
		return nil, core.BadRequest("minimum network prefix size is /%d", minimumNetworkBits)
	}

	reservations := spec.Reservations
	if reservations == nil {
		reservations = DefaultReservations()
	}

	if err := validateReservations(reservations, prefix.Bits()); err != nil {
		return nil, err
	}

	r, err := newRecord(core.NewResourceID(), body.Metadata, spec.OrganizationID, spec.ProjectID, spec.RegionID,
		spec.NetworkSpec, prefix.Masked().String(), reservations, req.Now)
	if err != nil {
		return nil, err
	}

	// Region charges the network to the organization's quota before creating it.
	if err := charge(req.Store, r, req.Now); err != nil {
		return nil, err
	}

	r.Lifecycle = core.ProvisionSchedule(req.Now, h.s.ProvisionDelay())
	networks.Put(req.Store, r.Network.Metadata.ID, r)

	return core.Created(r.Network), nil
}

func validateReservations(reservations *unikorn.NetworkReservations, networkBits int) error {
	inRange := func(bits int) bool { return bits >= 0 && bits <= 30 }

	if !inRange(reservations.PrefixLength) ||
		(reservations.ProviderReservedPrefixLength != nil && !inRange(*reservations.ProviderReservedPrefixLength)) {
		return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/reservations\": prefix lengths must be between 0 and 30")
	}

	if reservations.PrefixLength <= networkBits {
		return core.Unprocessable("reservation prefix length /%d must be longer than the network prefix /%d", reservations.PrefixLength, networkBits)
	}

	if provider := reservations.ProviderReservedPrefixLength; provider != nil && *provider < reservations.PrefixLength {
		return core.Unprocessable("provider reserved prefix length /%d must not be shorter than the reservation prefix length /%d", *provider, reservations.PrefixLength)
	}

	return nil
}

func (h *handlers) get(req *core.Request) (*core.Reply, error) {
	r, err := h.lookup(req, req.PathValue("networkID"), core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(r.Network), nil
}

func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	var body unikorn.NetworkUpdate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(specRequired...)...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateSpec(body.Spec); err != nil {
		return nil, err
	}

	// Region reads the network through the controller's cache and patches the
	// version it read (core.SameVersion): while the cache trails the network's last
	// write the patch fails, and the error is no HTTP error of region's: a 500.
	id := req.PathValue("networkID")

	current, err := core.Lookup(networks.Records(h.s.Cached(req)), id, req.Caller, metadataOf, rbacNetworks, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	if current.Network.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("network is being deleted")
	}

	r := networks.Records(req.Store)[id]
	if !core.SameVersion(current, r) {
		return nil, core.ServerError()
	}

	core.RewriteMetadata(&r.Network.Metadata.ReadMetadata, body.Metadata, req.Now)
	r.Network.Spec = body.Spec
	r.Lifecycle = core.ReprovisionSchedule(req.Now, h.s.ProvisionDelay())

	return core.Accepted(r.Network), nil
}

// delete deletes a network and, with it, what it owns: its security groups and load
// balancers. What stands on it (servers, file storage attached) holds it in use: they
// must go first.
func (h *handlers) delete(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("networkID")

	r, err := h.lookup(req, id, core.OpDelete)
	if err != nil {
		return nil, err
	}

	if core.Held(req.Store, core.RefTo[unikorn.Network](id)) {
		return nil, core.Forbidden("network is in use and cannot be deleted")
	}

	if core.MarkDeleting(&r.Network.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay()) {
		core.Collect(req.Store, core.RefTo[unikorn.Network](id), req.Now, h.s.DeprovisionDelay())
	}

	return core.Accepted(nil), nil
}

// fixtures are the fixture networks, charged to the quota as region charges every
// network.
func fixtures(st *core.Store) error {
	for _, n := range []struct{ id, name, prefix, project string }{
		{fixture.NetworkDefaultID, "default", "10.0.0.0/24", fixture.ProjectID},
		{fixture.NetworkSecondaryID, "secondary", "10.1.0.0/24", fixture.ProjectID},
		{fixture.NetworkOtherID, "other", "10.2.0.0/24", fixture.OtherProjectID},
	} {
		r, err := newRecord(n.id, unikorn.WriteMetadata{Name: n.name}, fixture.OrganizationID, n.project, fixture.RegionID,
			unikorn.NetworkSpec{DNSNameservers: []string{}}, n.prefix, DefaultReservations(), core.FixtureTime)
		if err != nil {
			return err
		}

		core.ApplyProvisioning(&r.Network.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

		if err := charge(st, r, core.FixtureTime); err != nil {
			return err
		}

		networks.Put(st, n.id, r)
	}

	return nil
}
