package compute

import (
	"context"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// What the Terraform types write when they manage the objects instances stand on:
// region's own shapes, named by the façade as the catalogue's objects are (reads.go).
type (
	NetworkCreate                     = unikorn.NetworkCreate
	NetworkCreateSpec                 = unikorn.NetworkCreateSpec
	NetworkSpec                       = unikorn.NetworkSpec
	NetworkUpdate                     = unikorn.NetworkUpdate
	NetworkReservations               = unikorn.NetworkReservations
	Route                             = unikorn.Route
	SecurityGroupCreate               = unikorn.SecurityGroupCreate
	SecurityGroupCreateSpec           = unikorn.SecurityGroupCreateSpec
	SecurityGroupRule                 = unikorn.SecurityGroupRule
	SecurityGroupSpec                 = unikorn.SecurityGroupSpec
	SecurityGroupUpdate               = unikorn.SecurityGroupUpdate
	SSHCertificateAuthorityCreate     = unikorn.SSHCertificateAuthorityCreate
	SSHCertificateAuthorityCreateSpec = unikorn.SSHCertificateAuthorityCreateSpec
	SSHCertificateAuthoritySpec       = unikorn.SSHCertificateAuthoritySpec
	Tag                               = unikorn.Tag
	WriteMetadata                     = unikorn.WriteMetadata
)

// Objects manages what instances stand on: networks, security groups and SSH
// certificate authorities, through region's public v2 API, which any project user may
// call whichever instance back end the provider uses; and the images made from
// instances.
type Objects interface {
	Images

	ReadNetwork(ctx context.Context, id string) (*unikorn.Network, error)
	CreateNetwork(ctx context.Context, create unikorn.NetworkCreate) (*unikorn.Network, error)
	UpdateNetwork(ctx context.Context, id string, update unikorn.NetworkUpdate) (*unikorn.Network, error)
	DeleteNetwork(ctx context.Context, id string) error
	ListNetworks(ctx context.Context, organizationID, projectID string) ([]unikorn.Network, error)

	ReadSecurityGroup(ctx context.Context, id string) (*unikorn.SecurityGroup, error)
	CreateSecurityGroup(ctx context.Context, create unikorn.SecurityGroupCreate) (*unikorn.SecurityGroup, error)
	UpdateSecurityGroup(ctx context.Context, id string, update unikorn.SecurityGroupUpdate) (*unikorn.SecurityGroup, error)
	DeleteSecurityGroup(ctx context.Context, id string) error
	ListSecurityGroups(ctx context.Context, organizationID, projectID string) ([]unikorn.SecurityGroup, error)

	ReadSSHCertificateAuthority(ctx context.Context, id string) (*unikorn.SSHCertificateAuthority, error)
	CreateSSHCertificateAuthority(ctx context.Context, create unikorn.SSHCertificateAuthorityCreate) (*unikorn.SSHCertificateAuthority, error)
	DeleteSSHCertificateAuthority(ctx context.Context, id string) error
	ListSSHCertificateAuthorities(ctx context.Context, organizationID, projectID string) ([]unikorn.SSHCertificateAuthority, error)
}

var _ Objects = (*Service)(nil)

// NetworkQuotaError means identity refused to charge the organization's `networks`
// quota for a new network. Nothing was created.
type NetworkQuotaError struct {
	Err error
}

func (e *NetworkQuotaError) Error() string {
	return "the organization's `networks` quota does not allow another network: " + e.Err.Error()
}

func (e *NetworkQuotaError) Unwrap() error { return e.Err }

func (s *Service) networks() regionObject[unikorn.Network] {
	return regionObject[unikorn.Network]{
		kind: "network", users: "the servers on it",
		get: s.client.GetNetwork, del: s.client.DeleteNetwork,
		metadata: func(network *unikorn.Network) *unikorn.ProjectScopedMetadata { return &network.Metadata },
	}
}

// ReadNetwork returns the network with id, or nil when region definitely has none.
func (s *Service) ReadNetwork(ctx context.Context, id string) (*unikorn.Network, error) {
	return s.networks().read(ctx, id)
}

// CreateNetwork creates a network and waits until region has provisioned it.
func (s *Service) CreateNetwork(ctx context.Context, create unikorn.NetworkCreate) (*unikorn.Network, error) {
	list := func(ctx context.Context) ([]unikorn.Network, error) {
		return s.ListNetworks(ctx, create.Spec.OrganizationID, create.Spec.ProjectID)
	}

	return s.networks().create(ctx, s, create.Metadata.Name, list, func(ctx context.Context) (*unikorn.Network, error) {
		network, err := s.client.CreateNetwork(ctx, create)
		if unikorn.IsForbidden(err) {
			return nil, &NetworkQuotaError{Err: err}
		}

		return network, err
	})
}

// UpdateNetwork changes what region can change of a network in place and waits until
// it is provisioned again.
func (s *Service) UpdateNetwork(ctx context.Context, id string, update unikorn.NetworkUpdate) (*unikorn.Network, error) {
	if _, err := s.client.UpdateNetwork(ctx, id, update); err != nil {
		return nil, err
	}

	return s.networks().waitProvisioned(ctx, s, id)
}

// DeleteNetwork deletes a network, waiting out the servers still on it, until region
// answers 404 for it.
func (s *Service) DeleteNetwork(ctx context.Context, id string) error {
	return s.networks().delete(ctx, s, id)
}

// securityGroups is the façade's view of region's security groups.
func (s *Service) securityGroups() regionObject[unikorn.SecurityGroup] {
	return regionObject[unikorn.SecurityGroup]{
		kind: "security group", users: "the servers in it",
		get: s.client.GetSecurityGroup, del: s.client.DeleteSecurityGroup,
		metadata: func(group *unikorn.SecurityGroup) *unikorn.ProjectScopedMetadata { return &group.Metadata },
	}
}

// ReadSecurityGroup returns the security group with id, or nil when region definitely
// has none.
func (s *Service) ReadSecurityGroup(ctx context.Context, id string) (*unikorn.SecurityGroup, error) {
	return s.securityGroups().read(ctx, id)
}

// CreateSecurityGroup creates a security group and waits until it is provisioned.
func (s *Service) CreateSecurityGroup(ctx context.Context, create unikorn.SecurityGroupCreate) (*unikorn.SecurityGroup, error) {
	network, err := s.client.GetNetwork(ctx, create.Spec.NetworkID)
	if err != nil {
		return nil, err
	}

	list := func(ctx context.Context) ([]unikorn.SecurityGroup, error) {
		return s.client.ListSecurityGroups(ctx, unikorn.SecurityGroupQuery{
			OrganizationIDs: []string{network.Metadata.OrganizationID}, ProjectIDs: []string{network.Metadata.ProjectID},
			NetworkIDs: []string{network.Metadata.ID},
		})
	}

	return s.securityGroups().create(ctx, s, create.Metadata.Name, list, func(ctx context.Context) (*unikorn.SecurityGroup, error) {
		return s.client.CreateSecurityGroup(ctx, create)
	})
}

// UpdateSecurityGroup replaces a security group's rules and metadata in place and
// waits until it is provisioned again.
func (s *Service) UpdateSecurityGroup(ctx context.Context, id string, update unikorn.SecurityGroupUpdate) (*unikorn.SecurityGroup, error) {
	if _, err := s.client.UpdateSecurityGroup(ctx, id, update); err != nil {
		return nil, err
	}

	return s.securityGroups().waitProvisioned(ctx, s, id)
}

// DeleteSecurityGroup deletes a security group, waiting out the servers still in it,
// until region answers 404 for it.
func (s *Service) DeleteSecurityGroup(ctx context.Context, id string) error {
	return s.securityGroups().delete(ctx, s, id)
}

// sshCertificateAuthorities is the façade's view of region's SSH certificate
// authorities.
func (s *Service) sshCertificateAuthorities() regionObject[unikorn.SSHCertificateAuthority] {
	return regionObject[unikorn.SSHCertificateAuthority]{
		kind: "SSH certificate authority", users: "the servers that trust it",
		get: s.client.GetSSHCertificateAuthority, del: s.client.DeleteSSHCertificateAuthority,
		metadata: func(authority *unikorn.SSHCertificateAuthority) *unikorn.ProjectScopedMetadata {
			return &authority.Metadata
		},
	}
}

// ReadSSHCertificateAuthority returns the SSH certificate authority with id, or nil
// when region definitely has none.
func (s *Service) ReadSSHCertificateAuthority(ctx context.Context, id string) (*unikorn.SSHCertificateAuthority, error) {
	return s.sshCertificateAuthorities().read(ctx, id)
}

// CreateSSHCertificateAuthority creates an SSH certificate authority.
func (s *Service) CreateSSHCertificateAuthority(ctx context.Context, create unikorn.SSHCertificateAuthorityCreate) (*unikorn.SSHCertificateAuthority, error) {
	list := func(ctx context.Context) ([]unikorn.SSHCertificateAuthority, error) {
		return s.ListSSHCertificateAuthorities(ctx, create.Spec.OrganizationID, create.Spec.ProjectID)
	}

	return s.sshCertificateAuthorities().create(ctx, s, create.Metadata.Name, list, func(ctx context.Context) (*unikorn.SSHCertificateAuthority, error) {
		return s.client.CreateSSHCertificateAuthority(ctx, create)
	})
}

// DeleteSSHCertificateAuthority deletes an SSH certificate authority until region
// answers 404 for it.
func (s *Service) DeleteSSHCertificateAuthority(ctx context.Context, id string) error {
	return s.sshCertificateAuthorities().delete(ctx, s, id)
}

// ListNetworks returns the networks of a project, or of every project of the
// organization the token can see when projectID is empty.
func (s *Service) ListNetworks(ctx context.Context, organizationID, projectID string) ([]unikorn.Network, error) {
	return s.client.ListNetworks(ctx, unikorn.NetworkQuery{OrganizationIDs: []string{organizationID}, ProjectIDs: nonEmpty(projectID)})
}

// ListSecurityGroups returns the security groups of a project, or of every project of
// the organization the token can see when projectID is empty.
func (s *Service) ListSecurityGroups(ctx context.Context, organizationID, projectID string) ([]unikorn.SecurityGroup, error) {
	return s.client.ListSecurityGroups(ctx, unikorn.SecurityGroupQuery{OrganizationIDs: []string{organizationID}, ProjectIDs: nonEmpty(projectID)})
}

// ListSSHCertificateAuthorities returns the SSH certificate authorities of a project,
// or of every project of the organization the token can see when projectID is empty.
func (s *Service) ListSSHCertificateAuthorities(ctx context.Context, organizationID, projectID string) ([]unikorn.SSHCertificateAuthority, error) {
	return s.client.ListSSHCertificateAuthorities(ctx, unikorn.SSHCertificateAuthorityQuery{OrganizationIDs: []string{organizationID}, ProjectIDs: nonEmpty(projectID)})
}
