// Package securitygroup is region's security groups (pkg/handler/securitygroup): the
// firewall rules of a network's servers. A security group is owned by its network,
// which takes it along when it goes, and held in use by the servers that name it.
// Other families read security groups as unikorn.SecurityGroup.
package securitygroup

import (
	"net/netip"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's security groups.
var Family = core.Family{Name: "securitygroup", Register: register}

const (
	// ObjectKind is a security group's kind among the objects the sandbox holds.
	ObjectKind = "securityGroup"

	rbacSecurityGroups = "region:securitygroups:v2"
)

// record is a security group as region keeps it.
type record struct {
	SecurityGroup unikorn.SecurityGroup `json:"securityGroup"`
	Lifecycle     core.Schedule         `json:"lifecycle,omitempty"`
}

var securityGroups = &core.Kind[record]{
	Name:       "securityGroups",
	Noun:       "region security group",
	Project:    func(r *record) *unikorn.ProjectScopedMetadata { return &r.SecurityGroup.Metadata },
	ObjectKind: ObjectKind,
	Owner: func(r *record) core.Ref {
		return core.RefTo[unikorn.Network](r.SecurityGroup.Status.NetworkID)
	},
	Life: func(r *record) (*unikorn.ReadMetadata, *core.Schedule) {
		return &r.SecurityGroup.Metadata.ReadMetadata, &r.Lifecycle
	},
}

func register(s *core.Server) error {
	core.Register(s, securityGroups)
	core.Expose(s, securityGroups, core.View[record, unikorn.SecurityGroup]{
		Show: func(r *record) *unikorn.SecurityGroup { return &r.SecurityGroup },
	})

	h := &handlers{s: s}
	s.Handle("GET /api/v2/securitygroups", h.list)
	s.Handle("POST /api/v2/securitygroups", h.create)
	s.Handle("GET /api/v2/securitygroups/{securityGroupID}", h.get)
	s.Handle("PUT /api/v2/securitygroups/{securityGroupID}", h.update)
	s.Handle("DELETE /api/v2/securitygroups/{securityGroupID}", h.delete)

	s.Fixture(fixtures)
	s.Advance(advance)

	return nil
}

// fixtures are the fixture security groups, on the fixture networks.
func fixtures(st *core.Store) error {
	tcp := func(port int) unikorn.SecurityGroupRule {
		return unikorn.SecurityGroupRule{Direction: "ingress", Protocol: "tcp", Port: &port}
	}

	for _, sg := range []struct {
		id, name, network string
		rules             []unikorn.SecurityGroupRule
	}{
		{fixture.SecurityGroupAllowSSHID, "allow-ssh", fixture.NetworkDefaultID, []unikorn.SecurityGroupRule{tcp(22)}},
		{fixture.SecurityGroupAllowWebID, "allow-web", fixture.NetworkDefaultID, []unikorn.SecurityGroupRule{tcp(80), tcp(443)}},
		{fixture.SecurityGroupSecondarySSHID, "secondary-ssh", fixture.NetworkSecondaryID, []unikorn.SecurityGroupRule{tcp(22)}},
	} {
		network, _ := core.Get[unikorn.Network](st, sg.network)
		r := newRecord(sg.id, unikorn.WriteMetadata{Name: sg.name}, network, sg.rules, core.FixtureTime)
		core.ApplyProvisioning(&r.SecurityGroup.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)
		securityGroups.Put(st, sg.id, r)
	}

	return nil
}

// advance applies the security groups' due transitions.
func advance(st *core.Store, now time.Time) bool {
	return securityGroups.Provision(st, now, nil)
}

// handlers serve region's security groups API (pkg/handler/securitygroup client_v2.go).
type handlers struct {
	s *core.Server
}

func metadataOf(r *record) *unikorn.ProjectScopedMetadata {
	return &r.SecurityGroup.Metadata
}

func (h *handlers) lookup(req *core.Request, id, operation string) (*record, error) {
	return core.Lookup(securityGroups.Records(req.Store), id, req.Caller, metadataOf, rbacSecurityGroups, operation)
}

func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	return core.OK(core.SelectList(q, req.Caller, rbacSecurityGroups, securityGroups.Records(req.Store), func(r *record) (unikorn.SecurityGroup, core.Listing) {
		status := r.SecurityGroup.Status

		return r.SecurityGroup, core.ProjectListing(&r.SecurityGroup.Metadata, status.RegionID, status.NetworkID)
	})), nil
}

// specRequired is the required part of region `securityGroupV2Spec`.
var specRequired = []string{"spec", "spec.rules", "spec.rules[].direction", "spec.rules[].protocol"}

// validateRules checks rules as region does: enums, port ranges only for layer 4
// protocols, and prefixes that are IPv4 CIDRs.
func validateRules(rules []unikorn.SecurityGroupRule) error {
	validPort := func(port *int) bool { return port == nil || (*port >= 1 && *port <= 65535) }

	for _, rule := range rules {
		if !slices.Contains([]string{"ingress", "egress"}, rule.Direction) {
			return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/rules/direction\": value %q is not one of the allowed values", rule.Direction)
		}

		if !slices.Contains([]string{"any", "icmp", "tcp", "udp", "vrrp"}, rule.Protocol) {
			return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/rules/protocol\": value %q is not one of the allowed values", rule.Protocol)
		}

		if !validPort(rule.Port) || !validPort(rule.PortMax) {
			return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/rules/port\": ports must be between 1 and 65535")
		}

		if (rule.Port != nil || rule.PortMax != nil) && rule.Protocol != "tcp" && rule.Protocol != "udp" {
			return core.BadRequest("rule specified ports for a layer 3 protocol")
		}

		if rule.PortMax != nil && (rule.Port == nil || *rule.Port >= *rule.PortMax) {
			return core.BadRequest("rule port must be less than its portMax")
		}

		if rule.Prefix != "" {
			if prefix, err := netip.ParsePrefix(rule.Prefix); err != nil || !prefix.Addr().Is4() {
				return core.BadRequest("rule prefix %q is not an IPv4 CIDR", rule.Prefix)
			}
		}
	}

	return nil
}

// newRecord builds a pending security group on a network, whose organization, project
// and region it inherits.
func newRecord(id string, write unikorn.WriteMetadata, network *unikorn.Network, rules []unikorn.SecurityGroupRule, now time.Time) *record {
	return &record{
		SecurityGroup: unikorn.SecurityGroup{
			Metadata: core.ProjectMetadata(id, write, network.Metadata.OrganizationID, network.Metadata.ProjectID, now),
			Spec:     unikorn.SecurityGroupSpec{Rules: rules},
			Status:   unikorn.SecurityGroupStatus{RegionID: network.Status.RegionID, NetworkID: network.Metadata.ID},
		},
	}
}

func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body unikorn.SecurityGroupCreate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(append(specRequired, "spec.networkId")...)...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := core.ValidateUUID("/spec/networkId", body.Spec.NetworkID); err != nil {
		return nil, err
	}

	if err := validateRules(body.Spec.Rules); err != nil {
		return nil, err
	}

	network, err := core.LookupAs[unikorn.Network](req.Store, body.Spec.NetworkID, req.Caller, rbacSecurityGroups, core.OpCreate)
	if err != nil {
		return nil, err
	}

	if network.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("network is being deleted")
	}

	r := newRecord(core.NewResourceID(), body.Metadata, network, body.Spec.Rules, req.Now)
	r.Lifecycle = core.ProvisionSchedule(req.Now, h.s.ProvisionDelay())
	securityGroups.Put(req.Store, r.SecurityGroup.Metadata.ID, r)

	return core.Created(r.SecurityGroup), nil
}

func (h *handlers) get(req *core.Request) (*core.Reply, error) {
	r, err := h.lookup(req, req.PathValue("securityGroupID"), core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(r.SecurityGroup), nil
}

func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	var body unikorn.SecurityGroupUpdate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(specRequired...)...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateRules(body.Spec.Rules); err != nil {
		return nil, err
	}

	// Read through the cache and patched under its lock, as a network is.
	id := req.PathValue("securityGroupID")

	current, err := core.Lookup(securityGroups.Records(h.s.Cached(req)), id, req.Caller, metadataOf, rbacSecurityGroups, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	if current.SecurityGroup.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("security group is being deleted")
	}

	r := securityGroups.Records(req.Store)[id]
	if !core.SameVersion(current, r) {
		return nil, core.ServerError()
	}

	core.RewriteMetadata(&r.SecurityGroup.Metadata.ReadMetadata, body.Metadata, req.Now)
	r.SecurityGroup.Spec = body.Spec
	r.Lifecycle = core.ReprovisionSchedule(req.Now, h.s.ProvisionDelay())

	return core.Accepted(r.SecurityGroup), nil
}

func (h *handlers) delete(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("securityGroupID")

	r, err := h.lookup(req, id, core.OpDelete)
	if err != nil {
		return nil, err
	}

	// The servers that use it hold it.
	if core.Held(req.Store, core.RefTo[unikorn.SecurityGroup](id)) {
		return nil, core.Forbidden("security group is in use and cannot be deleted")
	}

	core.MarkDeleting(&r.SecurityGroup.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay())

	return core.Accepted(nil), nil
}
