package networking

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// What region holds of a network comes back whole from the façade's network, and an
// update made of that network sends all of it again.
func TestNetworkKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	providerPart := 28
	in := unikorn.Network{
		Metadata: cloudtest.ProjectMetadata(),
		Spec: unikorn.NetworkSpec{
			DNSNameservers: []string{"8.8.8.8"},
			Routes:         []unikorn.Route{{Prefix: "192.168.0.0/16", Nexthop: "10.0.0.1"}},
		},
		Status: unikorn.NetworkStatus{
			RegionID: "region", Prefix: "10.0.0.0/24",
			Reservations: &unikorn.NetworkReservations{PrefixLength: 25, ProviderReservedPrefixLength: &providerPart},
		},
	}
	cloudtest.RequireAllSet(t, in.Spec)
	cloudtest.RequireAllSet(t, in.Status)

	network := networkFromWire(&in)
	cloudtest.RequireAllSet(t, *network)

	update := NetworkUpdate{Metadata: network.Metadata.WriteMetadata, NetworkSpec: network.NetworkSpec}.wire()
	assert.Equal(t, unikorn.NetworkUpdate{Metadata: in.Metadata.WriteMetadata, Spec: in.Spec}, update)

	create := NetworkCreate{
		Metadata: network.Metadata.WriteMetadata, NetworkSpec: network.NetworkSpec,
		OrganizationID: network.Metadata.OrganizationID, ProjectID: network.Metadata.ProjectID,
		RegionID: network.RegionID, Prefix: network.Prefix, Reservations: network.Reservations,
	}.wire()
	cloudtest.RequireAllSet(t, create)
	assert.Equal(t, in.Spec, create.Spec.NetworkSpec)
	assert.Equal(t, in.Status.Reservations, create.Spec.Reservations)
}

// Likewise a security group's rules and the network it is on.
func TestSecurityGroupKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	port, portMax := 80, 443
	in := unikorn.SecurityGroup{
		Metadata: cloudtest.ProjectMetadata(),
		Spec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
			{Direction: "ingress", Protocol: "tcp", Port: &port, PortMax: &portMax, Prefix: "192.0.2.0/24"},
		}},
		Status: unikorn.SecurityGroupStatus{RegionID: "region", NetworkID: "network"},
	}
	cloudtest.RequireAllSet(t, in.Spec)
	cloudtest.RequireAllSet(t, in.Status)

	group := securityGroupFromWire(&in)
	cloudtest.RequireAllSet(t, *group)

	create := SecurityGroupCreate{
		SecurityGroupUpdate: SecurityGroupUpdate{Metadata: group.Metadata.WriteMetadata, Rules: group.Rules},
		NetworkID:           group.NetworkID,
	}.wire()
	assert.Equal(t, unikorn.SecurityGroupCreate{
		Metadata: in.Metadata.WriteMetadata,
		Spec:     unikorn.SecurityGroupCreateSpec{SecurityGroupSpec: in.Spec, NetworkID: in.Status.NetworkID},
	}, create)
}

// Likewise an SSH certificate authority's key.
func TestSSHCertificateAuthorityKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	in := unikorn.SSHCertificateAuthority{
		Metadata: cloudtest.ProjectMetadata(),
		Spec:     unikorn.SSHCertificateAuthoritySpec{PublicKey: "ssh-ed25519 AAAA"},
	}
	cloudtest.RequireAllSet(t, in.Spec)

	authority := sshCertificateAuthorityFromWire(&in)
	cloudtest.RequireAllSet(t, *authority)

	create := SSHCertificateAuthorityCreate{
		Metadata: authority.Metadata.WriteMetadata, OrganizationID: authority.Metadata.OrganizationID,
		ProjectID: authority.Metadata.ProjectID, PublicKey: authority.PublicKey,
	}.wire()
	cloudtest.RequireAllSet(t, create)
	assert.Equal(t, in.Spec, create.Spec.SSHCertificateAuthoritySpec)
}
