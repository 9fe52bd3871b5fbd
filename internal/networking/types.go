package networking

import (
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Network is a network as region has it.
type Network struct {
	Metadata cloud.ProjectMetadata
	RegionID string
	// Prefix is the network's IPv4 CIDR.
	Prefix string
	NetworkSpec
	// Reservations is the start of the network kept from instances; nil when region
	// reports none.
	Reservations *Reservations
}

// NetworkSpec is what an update of a network replaces besides its metadata.
type NetworkSpec struct {
	// DNSNameservers are the addresses of the DNS servers the network hands out; none
	// for the platform's.
	DNSNameservers []string
	Routes         []Route
}

// Route sends traffic to Prefix through Nexthop, a gateway on the network.
type Route struct {
	Prefix  string
	Nexthop string
}

// Reservations is the first /PrefixLength of a network, kept from instances, of which
// the first /ProviderReservedPrefixLength (nil for region's default) is the platform's.
type Reservations struct {
	PrefixLength                 int
	ProviderReservedPrefixLength *int
}

// NetworkCreate is a new network: what may change later, and where it is and what
// addresses it has, which are fixed for its whole life.
type NetworkCreate struct {
	Metadata cloud.WriteMetadata
	NetworkSpec

	OrganizationID string
	ProjectID      string
	RegionID       string
	Prefix         string
	// Reservations is nil to leave region's default.
	Reservations *Reservations
}

// NetworkUpdate is everything an update of a network replaces.
type NetworkUpdate struct {
	Metadata cloud.WriteMetadata
	NetworkSpec
}

// SecurityGroup is a security group as region has it.
type SecurityGroup struct {
	Metadata  cloud.ProjectMetadata
	RegionID  string
	NetworkID string
	Rules     []Rule
}

// Rule admits traffic of a protocol in one direction, on a port or a range of them
// (nil for every port), from or to Prefix (empty for any address).
type Rule struct {
	Direction string
	Protocol  string
	Port      *int
	PortMax   *int
	Prefix    string
}

// SecurityGroupCreate is a new security group on the network it keeps for its life.
type SecurityGroupCreate struct {
	SecurityGroupUpdate

	NetworkID string
}

// SecurityGroupUpdate is everything an update of a security group replaces.
type SecurityGroupUpdate struct {
	Metadata cloud.WriteMetadata
	Rules    []Rule
}

// SSHCertificateAuthority is an SSH certificate authority as region has it.
type SSHCertificateAuthority struct {
	Metadata cloud.ProjectMetadata
	// PublicKey is the key as region keeps it, without a comment.
	PublicKey string
}

// SSHCertificateAuthorityCreate is a new SSH certificate authority; nothing of it
// changes later.
type SSHCertificateAuthorityCreate struct {
	Metadata       cloud.WriteMetadata
	OrganizationID string
	ProjectID      string
	PublicKey      string
}

// networkFromWire is region's network in the façade's terms.
func networkFromWire(in *unikorn.Network) *Network {
	return &Network{
		Metadata: cloud.ProjectMetadataOf(&in.Metadata),
		RegionID: in.Status.RegionID,
		Prefix:   in.Status.Prefix,
		NetworkSpec: NetworkSpec{
			DNSNameservers: slices.Clone(in.Spec.DNSNameservers),
			Routes:         routesFromWire(in.Spec.Routes),
		},
		Reservations: reservationsFromWire(in.Status.Reservations),
	}
}

// wire is the spec as region takes it.
func (s NetworkSpec) wire() unikorn.NetworkSpec {
	routes := make([]unikorn.Route, 0, len(s.Routes))
	for _, route := range s.Routes {
		routes = append(routes, unikorn.Route(route))
	}

	return unikorn.NetworkSpec{DNSNameservers: slices.Clone(s.DNSNameservers), Routes: routes}
}

func routesFromWire(in []unikorn.Route) []Route {
	if in == nil {
		return nil
	}

	out := make([]Route, 0, len(in))
	for _, route := range in {
		out = append(out, Route(route))
	}

	return out
}

// wire is the create as region takes it.
func (c NetworkCreate) wire() unikorn.NetworkCreate {
	return unikorn.NetworkCreate{
		Metadata: c.Metadata.Wire(),
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    c.NetworkSpec.wire(),
			OrganizationID: c.OrganizationID, ProjectID: c.ProjectID, RegionID: c.RegionID, Prefix: c.Prefix,
			Reservations: c.Reservations.wire(),
		},
	}
}

// wire is the update as region takes it.
func (u NetworkUpdate) wire() unikorn.NetworkUpdate {
	return unikorn.NetworkUpdate{Metadata: u.Metadata.Wire(), Spec: u.NetworkSpec.wire()}
}

func reservationsFromWire(in *unikorn.NetworkReservations) *Reservations {
	if in == nil {
		return nil
	}

	out := Reservations(*in)

	return &out
}

func (r *Reservations) wire() *unikorn.NetworkReservations {
	if r == nil {
		return nil
	}

	out := unikorn.NetworkReservations(*r)

	return &out
}

// securityGroupFromWire is region's security group in the façade's terms.
func securityGroupFromWire(in *unikorn.SecurityGroup) *SecurityGroup {
	out := &SecurityGroup{
		Metadata:  cloud.ProjectMetadataOf(&in.Metadata),
		RegionID:  in.Status.RegionID,
		NetworkID: in.Status.NetworkID,
		Rules:     make([]Rule, 0, len(in.Spec.Rules)),
	}

	for _, rule := range in.Spec.Rules {
		out.Rules = append(out.Rules, Rule(rule))
	}

	return out
}

// wire is the update as region takes it; region takes an empty list of rules, never
// none.
func (u SecurityGroupUpdate) wire() unikorn.SecurityGroupUpdate {
	spec := unikorn.SecurityGroupSpec{Rules: make([]unikorn.SecurityGroupRule, 0, len(u.Rules))}

	for _, rule := range u.Rules {
		spec.Rules = append(spec.Rules, unikorn.SecurityGroupRule(rule))
	}

	return unikorn.SecurityGroupUpdate{Metadata: u.Metadata.Wire(), Spec: spec}
}

// wire is the create as region takes it.
func (c SecurityGroupCreate) wire() unikorn.SecurityGroupCreate {
	update := c.SecurityGroupUpdate.wire()

	return unikorn.SecurityGroupCreate{
		Metadata: update.Metadata,
		Spec:     unikorn.SecurityGroupCreateSpec{SecurityGroupSpec: update.Spec, NetworkID: c.NetworkID},
	}
}

// sshCertificateAuthorityFromWire is region's SSH certificate authority in the
// façade's terms.
func sshCertificateAuthorityFromWire(in *unikorn.SSHCertificateAuthority) *SSHCertificateAuthority {
	return &SSHCertificateAuthority{Metadata: cloud.ProjectMetadataOf(&in.Metadata), PublicKey: in.Spec.PublicKey}
}

// wire is the create as region takes it.
func (c SSHCertificateAuthorityCreate) wire() unikorn.SSHCertificateAuthorityCreate {
	return unikorn.SSHCertificateAuthorityCreate{
		Metadata: c.Metadata.Wire(),
		Spec: unikorn.SSHCertificateAuthorityCreateSpec{
			SSHCertificateAuthoritySpec: unikorn.SSHCertificateAuthoritySpec{PublicKey: c.PublicKey},
			OrganizationID:              c.OrganizationID, ProjectID: c.ProjectID,
		},
	}
}
