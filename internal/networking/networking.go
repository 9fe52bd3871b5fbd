package networking

import (
	"context"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Objects manages what instances stand on: networks, security groups and SSH
// certificate authorities, through region's public v2 API, which any project user may
// call whichever instance back end the provider uses, and finds them by ID or name.
type Objects interface {
	ReadNetwork(ctx context.Context, id string) (*Network, error)
	CreateNetwork(ctx context.Context, create NetworkCreate) (*Network, error)
	UpdateNetwork(ctx context.Context, id string, update NetworkUpdate) (*Network, error)
	DeleteNetwork(ctx context.Context, id string, created time.Time) error
	ListNetworks(ctx context.Context, organizationID, projectID string) ([]Network, error)

	ReadSecurityGroup(ctx context.Context, id string) (*SecurityGroup, error)
	CreateSecurityGroup(ctx context.Context, create SecurityGroupCreate) (*SecurityGroup, error)
	UpdateSecurityGroup(ctx context.Context, id string, update SecurityGroupUpdate) (*SecurityGroup, error)
	DeleteSecurityGroup(ctx context.Context, id string, created time.Time) error
	ListSecurityGroups(ctx context.Context, organizationID, projectID string) ([]SecurityGroup, error)

	ReadSSHCertificateAuthority(ctx context.Context, id string) (*SSHCertificateAuthority, error)
	CreateSSHCertificateAuthority(ctx context.Context, create SSHCertificateAuthorityCreate) (*SSHCertificateAuthority, error)
	DeleteSSHCertificateAuthority(ctx context.Context, id string, created time.Time) error
	ListSSHCertificateAuthorities(ctx context.Context, organizationID, projectID string) ([]SSHCertificateAuthority, error)

	Network(ctx context.Context, selector Selector) (*Network, error)
	SecurityGroup(ctx context.Context, selector Selector) (*SecurityGroup, error)
	SSHCertificateAuthority(ctx context.Context, selector Selector) (*SSHCertificateAuthority, error)
}

var _ Objects = (*Service)(nil)

// Service manages networks, security groups and SSH certificate authorities over a
// session shared with the façade's other families.
type Service struct {
	session *cloud.Session
	client  *unikorn.Client
	// compute says that instances are compute's, whose servers region may not show
	// the token: what holds an object is also looked for among compute's instances.
	compute bool
}

// HeldByComputeInstances makes the look for what holds a network, a security group
// or an SSH certificate authority ask compute's instances too, for a provider whose
// instances are compute's (see cloud.HeldError).
func (s *Service) HeldByComputeInstances() *Service {
	s.compute = true

	return s
}

// NewService returns the networking façade over session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client()}
}

// Selector and LookupError are the look-ups' terms, shared by every family.
type (
	Selector    = cloud.Selector
	LookupError = cloud.LookupError
)

// NetworkQuotaError means identity refused to charge the organization's `networks`
// quota for a new network. Nothing was created.
type NetworkQuotaError struct {
	Err error
}

func (e *NetworkQuotaError) Error() string {
	return "the organization's `networks` quota does not allow another network: " + e.Err.Error()
}

func (e *NetworkQuotaError) Unwrap() error { return e.Err }

// networks, securityGroups and sshCertificateAuthorities are what instances (and
// whatever else stands on a network) refer to, so every read of them is kept for the
// shared reads of the process (see SharedNetwork).
func (s *Service) networks() cloud.Object[unikorn.Network] {
	return cloud.Object[unikorn.Network]{
		Kind: "network", Users: "the servers on it, the file storage attached to it and the volumes on it",
		Get: s.client.GetNetwork, Del: s.client.DeleteNetwork, HeldBy: s.networkHolders,
		Metadata: func(network *unikorn.Network) *unikorn.ReadMetadata { return &network.Metadata.ReadMetadata },
	}.Remembering(s.session)
}

// ReadNetwork returns the network with id, or nil when region definitely has none.
func (s *Service) ReadNetwork(ctx context.Context, id string) (*Network, error) {
	return cloud.One(networkFromWire)(s.networks().Read(ctx, s.session, id))
}

// CreateNetwork creates a network and waits until region has provisioned it.
func (s *Service) CreateNetwork(ctx context.Context, create NetworkCreate) (*Network, error) {
	list := func(ctx context.Context) ([]unikorn.Network, error) {
		return s.listNetworks(ctx, create.OrganizationID, create.ProjectID)
	}

	return cloud.One(networkFromWire)(s.networks().Create(ctx, s.session, create.Metadata.Name, list, func(ctx context.Context) (*unikorn.Network, error) {
		network, err := s.client.CreateNetwork(ctx, create.wire())
		// Region answers 403 for RBAC's refusals too: only the body says quota.
		if cloud.IsQuotaRefusal(err) {
			return nil, &NetworkQuotaError{Err: err}
		}

		return network, err
	}))
}

// UpdateNetwork changes what region can change of a network in place, sending the
// update again while region says it lost its optimistic lock (Session.SendUpdate), and
// waits until it is provisioned again.
func (s *Service) UpdateNetwork(ctx context.Context, id string, update NetworkUpdate) (*Network, error) {
	s.networks().Forget(s.session, id)

	if err := s.session.SendUpdate(ctx, "network "+id, func(ctx context.Context) error {
		_, err := s.client.UpdateNetwork(ctx, id, update.wire())

		return err
	}); err != nil {
		return nil, err
	}

	return cloud.One(networkFromWire)(s.networks().WaitProvisioned(ctx, s.session, id))
}

// DeleteNetwork deletes a network, waiting out the servers still on it, until region
// answers 404 for it.
func (s *Service) DeleteNetwork(ctx context.Context, id string, created time.Time) error {
	return s.networks().Delete(ctx, s.session, id, created)
}

// securityGroups is the façade's view of region's security groups.
func (s *Service) securityGroups() cloud.Object[unikorn.SecurityGroup] {
	return cloud.Object[unikorn.SecurityGroup]{
		Kind: "security group", Users: "the servers in it",
		Get: s.client.GetSecurityGroup, Del: s.client.DeleteSecurityGroup, HeldBy: s.securityGroupHolders,
		Metadata: func(group *unikorn.SecurityGroup) *unikorn.ReadMetadata { return &group.Metadata.ReadMetadata },
	}.Remembering(s.session)
}

// ReadSecurityGroup returns the security group with id, or nil when region definitely
// has none.
func (s *Service) ReadSecurityGroup(ctx context.Context, id string) (*SecurityGroup, error) {
	return cloud.One(securityGroupFromWire)(s.FreshSecurityGroup(ctx, id))
}

// FreshSecurityGroup is ReadSecurityGroup as region has it, for the checks of the
// façade's other families, which read it afresh when a shared read missed it.
func (s *Service) FreshSecurityGroup(ctx context.Context, id string) (*unikorn.SecurityGroup, error) {
	return s.securityGroups().Read(ctx, s.session, id)
}

// CreateSecurityGroup creates a security group and waits until it is provisioned.
func (s *Service) CreateSecurityGroup(ctx context.Context, create SecurityGroupCreate) (*SecurityGroup, error) {
	// Only the network's organization and project are needed, which never change.
	network, err := s.SharedNetwork(ctx, create.NetworkID, time.Time{})
	if err != nil {
		return nil, err
	}

	list := func(ctx context.Context) ([]unikorn.SecurityGroup, error) {
		return s.client.ListSecurityGroups(ctx, unikorn.SecurityGroupQuery{
			OrganizationIDs: []string{network.Metadata.OrganizationID}, ProjectIDs: []string{network.Metadata.ProjectID},
			NetworkIDs: []string{network.Metadata.ID},
		})
	}

	return cloud.One(securityGroupFromWire)(s.securityGroups().Create(ctx, s.session, create.Metadata.Name, list,
		func(ctx context.Context) (*unikorn.SecurityGroup, error) {
			return s.client.CreateSecurityGroup(ctx, create.wire())
		}))
}

// UpdateSecurityGroup replaces a security group's rules and metadata in place, as
// UpdateNetwork changes a network, and waits until it is provisioned again.
func (s *Service) UpdateSecurityGroup(ctx context.Context, id string, update SecurityGroupUpdate) (*SecurityGroup, error) {
	s.securityGroups().Forget(s.session, id)

	if err := s.session.SendUpdate(ctx, "security group "+id, func(ctx context.Context) error {
		_, err := s.client.UpdateSecurityGroup(ctx, id, update.wire())

		return err
	}); err != nil {
		return nil, err
	}

	return cloud.One(securityGroupFromWire)(s.securityGroups().WaitProvisioned(ctx, s.session, id))
}

// DeleteSecurityGroup deletes a security group, waiting out the servers still in it,
// until region answers 404 for it.
func (s *Service) DeleteSecurityGroup(ctx context.Context, id string, created time.Time) error {
	return s.securityGroups().Delete(ctx, s.session, id, created)
}

// sshCertificateAuthorities is the façade's view of region's SSH certificate
// authorities.
func (s *Service) sshCertificateAuthorities() cloud.Object[unikorn.SSHCertificateAuthority] {
	return cloud.Object[unikorn.SSHCertificateAuthority]{
		Kind: "SSH certificate authority", Users: "the servers that trust it",
		Get: s.client.GetSSHCertificateAuthority, Del: s.client.DeleteSSHCertificateAuthority,
		HeldBy: s.sshCertificateAuthorityHolders,
		Metadata: func(authority *unikorn.SSHCertificateAuthority) *unikorn.ReadMetadata {
			return &authority.Metadata.ReadMetadata
		},
	}.Remembering(s.session)
}

// ReadSSHCertificateAuthority returns the SSH certificate authority with id, or nil
// when region definitely has none.
func (s *Service) ReadSSHCertificateAuthority(ctx context.Context, id string) (*SSHCertificateAuthority, error) {
	return cloud.One(sshCertificateAuthorityFromWire)(s.FreshSSHCertificateAuthority(ctx, id))
}

// FreshSSHCertificateAuthority is FreshSecurityGroup for an SSH certificate authority.
func (s *Service) FreshSSHCertificateAuthority(ctx context.Context, id string) (*unikorn.SSHCertificateAuthority, error) {
	return s.sshCertificateAuthorities().Read(ctx, s.session, id)
}

// CreateSSHCertificateAuthority creates an SSH certificate authority.
func (s *Service) CreateSSHCertificateAuthority(ctx context.Context, create SSHCertificateAuthorityCreate) (*SSHCertificateAuthority, error) {
	list := func(ctx context.Context) ([]unikorn.SSHCertificateAuthority, error) {
		return s.listSSHCertificateAuthorities(ctx, create.OrganizationID, create.ProjectID)
	}

	return cloud.One(sshCertificateAuthorityFromWire)(s.sshCertificateAuthorities().Create(ctx, s.session, create.Metadata.Name, list,
		func(ctx context.Context) (*unikorn.SSHCertificateAuthority, error) {
			return s.client.CreateSSHCertificateAuthority(ctx, create.wire())
		}))
}

// DeleteSSHCertificateAuthority deletes an SSH certificate authority until region
// answers 404 for it.
func (s *Service) DeleteSSHCertificateAuthority(ctx context.Context, id string, created time.Time) error {
	return s.sshCertificateAuthorities().Delete(ctx, s.session, id, created)
}

// ListNetworks returns the networks of a project, or of every project of the
// organization the token can see when projectID is empty.
func (s *Service) ListNetworks(ctx context.Context, organizationID, projectID string) ([]Network, error) {
	return cloud.All(networkFromWire)(s.listNetworks(ctx, organizationID, projectID))
}

func (s *Service) listNetworks(ctx context.Context, organizationID, projectID string) ([]unikorn.Network, error) {
	return s.client.ListNetworks(ctx, unikorn.NetworkQuery{OrganizationIDs: []string{organizationID}, ProjectIDs: cloud.Only(projectID)})
}

// ListSecurityGroups returns the security groups of a project, or of every project of
// the organization the token can see when projectID is empty.
func (s *Service) ListSecurityGroups(ctx context.Context, organizationID, projectID string) ([]SecurityGroup, error) {
	return cloud.All(securityGroupFromWire)(s.client.ListSecurityGroups(ctx,
		unikorn.SecurityGroupQuery{OrganizationIDs: []string{organizationID}, ProjectIDs: cloud.Only(projectID)}))
}

// ListSSHCertificateAuthorities returns the SSH certificate authorities of a project,
// or of every project of the organization the token can see when projectID is empty.
func (s *Service) ListSSHCertificateAuthorities(ctx context.Context, organizationID, projectID string) ([]SSHCertificateAuthority, error) {
	return cloud.All(sshCertificateAuthorityFromWire)(s.listSSHCertificateAuthorities(ctx, organizationID, projectID))
}

func (s *Service) listSSHCertificateAuthorities(ctx context.Context, organizationID, projectID string) ([]unikorn.SSHCertificateAuthority, error) {
	return s.client.ListSSHCertificateAuthorities(ctx, unikorn.SSHCertificateAuthorityQuery{OrganizationIDs: []string{organizationID}, ProjectIDs: cloud.Only(projectID)})
}

// Network finds one network.
func (s *Service) Network(ctx context.Context, selector Selector) (*Network, error) {
	return cloud.One(networkFromWire)(s.networks().Lookup(ctx, s.session, selector,
		func(ctx context.Context) ([]unikorn.Network, error) {
			return s.client.ListNetworks(ctx, unikorn.NetworkQuery{
				OrganizationIDs: []string{selector.OrganizationID},
				ProjectIDs:      []string{selector.ProjectID},
			})
		}))
}

// SecurityGroup finds one security group.
func (s *Service) SecurityGroup(ctx context.Context, selector Selector) (*SecurityGroup, error) {
	return cloud.One(securityGroupFromWire)(s.securityGroups().Lookup(ctx, s.session, selector,
		func(ctx context.Context) ([]unikorn.SecurityGroup, error) {
			return s.client.ListSecurityGroups(ctx, unikorn.SecurityGroupQuery{
				OrganizationIDs: []string{selector.OrganizationID},
				ProjectIDs:      []string{selector.ProjectID},
				NetworkIDs:      cloud.Only(selector.NetworkID),
			})
		}))
}

// SSHCertificateAuthority finds one SSH certificate authority.
func (s *Service) SSHCertificateAuthority(ctx context.Context, selector Selector) (*SSHCertificateAuthority, error) {
	return cloud.One(sshCertificateAuthorityFromWire)(s.sshCertificateAuthorities().Lookup(ctx, s.session, selector,
		func(ctx context.Context) ([]unikorn.SSHCertificateAuthority, error) {
			return s.client.ListSSHCertificateAuthorities(ctx, unikorn.SSHCertificateAuthorityQuery{
				OrganizationIDs: []string{selector.OrganizationID},
				ProjectIDs:      []string{selector.ProjectID},
			})
		}))
}

// SharedNetwork returns region's record of the network, for the checks of the
// façade's other families, as a read that began at notBefore or later showed
// it, shared with every caller of the process (see cloud.Shared): the checks of every
// instance of a run read it. What it returns is shared and must not be modified; a
// 404 or 403 is returned as the error it is, never kept.
func (s *Service) SharedNetwork(ctx context.Context, id string, notBefore time.Time) (*unikorn.Network, error) {
	return s.networks().Shared(ctx, s.session, id, notBefore)
}

// SharedSecurityGroup is SharedNetwork for a security group, read at any time: what
// the checks read of it (its network, its name) does not change.
func (s *Service) SharedSecurityGroup(ctx context.Context, id string) (*unikorn.SecurityGroup, error) {
	return s.securityGroups().Shared(ctx, s.session, id, time.Time{})
}

// SharedSSHCertificateAuthority is SharedSecurityGroup for an SSH certificate authority.
func (s *Service) SharedSSHCertificateAuthority(ctx context.Context, id string) (*unikorn.SSHCertificateAuthority, error) {
	return s.sshCertificateAuthorities().Shared(ctx, s.session, id, time.Time{})
}

// Forget drops what the process keeps of the network, the security groups and the
// SSH certificate authority (each may be empty): the cloud refused what they were
// read for, so the next check asks again and can say what changed.
func (s *Service) Forget(networkID string, securityGroupIDs []string, sshCertificateAuthorityID string) {
	if networkID != "" {
		s.networks().Forget(s.session, networkID)
	}

	for _, id := range securityGroupIDs {
		s.securityGroups().Forget(s.session, id)
	}

	if sshCertificateAuthorityID != "" {
		s.sshCertificateAuthorities().Forget(s.session, sshCertificateAuthorityID)
	}
}
