package networking

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// requireAllSet fails unless every exported field under v is set, so that a record
// built to exercise a conversion keeps exercising all of it as the wire grows.
func requireAllSet(t *testing.T, v any) {
	t.Helper()

	var walk func(value reflect.Value, at string)

	walk = func(value reflect.Value, at string) {
		if tm, ok := value.Interface().(time.Time); ok {
			if tm.IsZero() {
				t.Errorf("%s is not set", at)
			}

			return
		}

		switch value.Kind() {
		case reflect.Struct:
			for i := range value.NumField() {
				if field := value.Type().Field(i); field.IsExported() {
					walk(value.Field(i), at+"."+field.Name)
				}
			}
		case reflect.Pointer:
			if value.IsNil() {
				t.Errorf("%s is not set", at)

				return
			}

			walk(value.Elem(), at)
		case reflect.Slice:
			if value.Len() == 0 {
				t.Errorf("%s is empty", at)
			}

			for i := range value.Len() {
				walk(value.Index(i), at+"[]")
			}
		default:
			if value.IsZero() {
				t.Errorf("%s is not set", at)
			}
		}
	}

	walk(reflect.ValueOf(v), reflect.TypeOf(v).String())
}

func metadataOnTheWire() unikorn.ProjectScopedMetadata {
	deleted := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)

	var metadata unikorn.ProjectScopedMetadata
	metadata.ID, metadata.OrganizationID, metadata.ProjectID = "id", "organization", "project"
	metadata.Name, metadata.Description = "web", "the web tier"
	metadata.Tags = unikorn.Tags{{Name: "team", Value: "web"}}
	metadata.CreationTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	metadata.DeletionTime = &deleted

	return metadata
}

// What region holds of a network comes back whole from the façade's network, and an
// update made of that network sends all of it again.
func TestNetworkKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	providerPart := 28
	in := unikorn.Network{
		Metadata: metadataOnTheWire(),
		Spec: unikorn.NetworkSpec{
			DNSNameservers: []string{"8.8.8.8"},
			Routes:         []unikorn.Route{{Prefix: "192.168.0.0/16", Nexthop: "10.0.0.1"}},
		},
		Status: unikorn.NetworkStatus{
			RegionID: "region", Prefix: "10.0.0.0/24",
			Reservations: &unikorn.NetworkReservations{PrefixLength: 25, ProviderReservedPrefixLength: &providerPart},
		},
	}
	requireAllSet(t, in.Spec)
	requireAllSet(t, in.Status)

	network := networkFromWire(&in)
	requireAllSet(t, *network)

	update := NetworkUpdate{Metadata: network.Metadata.WriteMetadata, NetworkSpec: network.NetworkSpec}.wire()
	assert.Equal(t, unikorn.NetworkUpdate{Metadata: in.Metadata.WriteMetadata, Spec: in.Spec}, update)

	create := NetworkCreate{
		Metadata: network.Metadata.WriteMetadata, NetworkSpec: network.NetworkSpec,
		OrganizationID: network.Metadata.OrganizationID, ProjectID: network.Metadata.ProjectID,
		RegionID: network.RegionID, Prefix: network.Prefix, Reservations: network.Reservations,
	}.wire()
	requireAllSet(t, create)
	assert.Equal(t, in.Spec, create.Spec.NetworkSpec)
	assert.Equal(t, in.Status.Reservations, create.Spec.Reservations)
}

// Likewise a security group's rules and the network it is on.
func TestSecurityGroupKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	port, portMax := 80, 443
	in := unikorn.SecurityGroup{
		Metadata: metadataOnTheWire(),
		Spec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
			{Direction: "ingress", Protocol: "tcp", Port: &port, PortMax: &portMax, Prefix: "192.0.2.0/24"},
		}},
		Status: unikorn.SecurityGroupStatus{RegionID: "region", NetworkID: "network"},
	}
	requireAllSet(t, in.Spec)
	requireAllSet(t, in.Status)

	group := securityGroupFromWire(&in)
	requireAllSet(t, *group)

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
		Metadata: metadataOnTheWire(),
		Spec:     unikorn.SSHCertificateAuthoritySpec{PublicKey: "ssh-ed25519 AAAA"},
	}
	requireAllSet(t, in.Spec)

	authority := sshCertificateAuthorityFromWire(&in)
	requireAllSet(t, *authority)

	create := SSHCertificateAuthorityCreate{
		Metadata: authority.Metadata.WriteMetadata, OrganizationID: authority.Metadata.OrganizationID,
		ProjectID: authority.Metadata.ProjectID, PublicKey: authority.PublicKey,
	}.wire()
	requireAllSet(t, create)
	assert.Equal(t, in.Spec, create.Spec.SSHCertificateAuthoritySpec)
}
