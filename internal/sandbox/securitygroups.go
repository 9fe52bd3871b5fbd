package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"net/netip"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func securityGroupMetadata(record *securityGroupRecord) *unikorn.ProjectScopedMetadata {
	return &record.SecurityGroup.Metadata
}

func (s *Sandbox) listSecurityGroups(req *core.Request) (*core.Reply, error) {
	q, err := parseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	return replyOK(selectList(q, req.Caller, s.world.SecurityGroups, func(record *securityGroupRecord) (unikorn.SecurityGroup, listing) {
		status := record.SecurityGroup.Status

		return record.SecurityGroup, projectListing(&record.SecurityGroup.Metadata, status.RegionID, status.NetworkID)
	})), nil
}

// securityGroupSpecRequired is the required part of region `securityGroupV2Spec`.
var securityGroupSpecRequired = []string{"spec", "spec.rules", "spec.rules[].direction", "spec.rules[].protocol"}

// validateRules checks rules as region does: enums, port ranges only for layer 4
// protocols, and prefixes that are IPv4 CIDRs.
func validateRules(rules []unikorn.SecurityGroupRule) error {
	validPort := func(port *int) bool { return port == nil || (*port >= 1 && *port <= 65535) }

	for _, rule := range rules {
		if !slices.Contains([]string{"ingress", "egress"}, rule.Direction) {
			return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/rules/direction\": value %q is not one of the allowed values", rule.Direction)
		}

		if !slices.Contains([]string{"any", "icmp", "tcp", "udp", "vrrp"}, rule.Protocol) {
			return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/rules/protocol\": value %q is not one of the allowed values", rule.Protocol)
		}

		if !validPort(rule.Port) || !validPort(rule.PortMax) {
			return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/rules/port\": ports must be between 1 and 65535")
		}

		if (rule.Port != nil || rule.PortMax != nil) && rule.Protocol != "tcp" && rule.Protocol != "udp" {
			return errBadRequest("rule specified ports for a layer 3 protocol")
		}

		if rule.PortMax != nil && (rule.Port == nil || *rule.Port >= *rule.PortMax) {
			return errBadRequest("rule port must be less than its portMax")
		}

		if rule.Prefix != "" {
			if prefix, err := netip.ParsePrefix(rule.Prefix); err != nil || !prefix.Addr().Is4() {
				return errBadRequest("rule prefix %q is not an IPv4 CIDR", rule.Prefix)
			}
		}
	}

	return nil
}

// newSecurityGroupRecord builds a pending security group on a network, whose
// organization, project and region it inherits.
func newSecurityGroupRecord(id string, write unikorn.WriteMetadata, network *unikorn.Network, rules []unikorn.SecurityGroupRule, now time.Time) *securityGroupRecord {
	return &securityGroupRecord{
		SecurityGroup: unikorn.SecurityGroup{
			Metadata: projectMetadata(id, write, network.Metadata.OrganizationID, network.Metadata.ProjectID, now),
			Spec:     unikorn.SecurityGroupSpec{Rules: rules},
			Status:   unikorn.SecurityGroupStatus{RegionID: network.Status.RegionID, NetworkID: network.Metadata.ID},
		},
	}
}

func (s *Sandbox) createSecurityGroup(req *core.Request) (*core.Reply, error) {
	var body unikorn.SecurityGroupCreate
	if err := decodeBody(req.Request, &body, requiredWith(append(securityGroupSpecRequired, "spec.networkId")...)...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateUUID("/spec/networkId", body.Spec.NetworkID); err != nil {
		return nil, err
	}

	if err := validateRules(body.Spec.Rules); err != nil {
		return nil, err
	}

	network, err := s.lookupNetwork(req, body.Spec.NetworkID, rbacSecurityGroups, opCreate)
	if err != nil {
		return nil, err
	}

	if network.Metadata.DeletionTime != nil {
		return nil, errBadRequest("network is being deleted")
	}

	record := newSecurityGroupRecord(newResourceID(), body.Metadata, network, body.Spec.Rules, req.Now)
	record.Lifecycle = provisionSchedule(req.Now, s.core.ProvisionDelay())
	s.world.SecurityGroups[record.SecurityGroup.Metadata.ID] = record

	return replyCreated(record.SecurityGroup), nil
}

func (s *Sandbox) getSecurityGroup(req *core.Request) (*core.Reply, error) {
	record, err := lookup(s.world.SecurityGroups, req.PathValue("securityGroupID"), req.Caller, securityGroupMetadata, rbacSecurityGroups, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(record.SecurityGroup), nil
}

func (s *Sandbox) updateSecurityGroup(req *core.Request) (*core.Reply, error) {
	var body unikorn.SecurityGroupUpdate
	if err := decodeBody(req.Request, &body, requiredWith(securityGroupSpecRequired...)...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateRules(body.Spec.Rules); err != nil {
		return nil, err
	}

	record, err := lookup(s.world.SecurityGroups, req.PathValue("securityGroupID"), req.Caller, securityGroupMetadata, rbacSecurityGroups, opUpdate)
	if err != nil {
		return nil, err
	}

	if record.SecurityGroup.Metadata.DeletionTime != nil {
		return nil, errBadRequest("security group is being deleted")
	}

	rewriteMetadata(&record.SecurityGroup.Metadata.ReadMetadata, body.Metadata, req.Now)
	record.SecurityGroup.Spec = body.Spec
	record.Lifecycle = reprovisionSchedule(req.Now, s.core.ProvisionDelay())

	return replyAccepted(record.SecurityGroup), nil
}

func (s *Sandbox) deleteSecurityGroup(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("securityGroupID")

	record, err := lookup(s.world.SecurityGroups, id, req.Caller, securityGroupMetadata, rbacSecurityGroups, opDelete)
	if err != nil {
		return nil, err
	}

	for _, server := range s.world.Servers {
		if server.usesSecurityGroup(id) {
			return nil, errForbidden("security group is in use and cannot be deleted")
		}
	}

	markDeleting(&record.SecurityGroup.Metadata.ReadMetadata, &record.Lifecycle, req.Now, s.core.DeprovisionDelay())

	return replyAccepted(nil), nil
}
