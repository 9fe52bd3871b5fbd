package sandbox

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func networkCreate(name, prefix string) unikorn.NetworkCreate {
	return unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{Name: name},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{"8.8.8.8"}},
			OrganizationID: OrganizationID,
			ProjectID:      ProjectID,
			RegionID:       RegionID,
			Prefix:         prefix,
		},
	}
}

func (h *harness) createNetwork(name, prefix string) unikorn.Network {
	h.t.Helper()

	var network unikorn.Network

	h.call(http.MethodPost, "/api/v2/networks", networkCreate(name, prefix)).expect(http.StatusCreated, &network)

	return network
}

func TestNetworkLifecycle(t *testing.T) {
	h := newHarness(t)

	network := h.createNetwork("extra", "192.168.0.0/23")
	assert.Equal(t, unikorn.ProvisioningPending, network.Metadata.ProvisioningStatus)
	assert.Equal(t, "192.168.0.0/23", network.Status.Prefix)
	assert.Equal(t, defaultReservations(), network.Status.Reservations)

	path := "/api/v2/networks/" + network.Metadata.ID

	h.clock.Advance(settle)
	h.call(http.MethodGet, path, nil).expect(http.StatusOK, &network)
	assert.Equal(t, unikorn.ProvisioningProvisioned, network.Metadata.ProvisioningStatus)

	update := unikorn.NetworkUpdate{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: unikorn.NetworkSpec{DNSNameservers: []string{}}}
	h.call(http.MethodPut, path, update).expect(http.StatusAccepted, &network)
	assert.Equal(t, "renamed", network.Metadata.Name)
	assert.Empty(t, network.Spec.DNSNameservers)

	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodPut, path, update).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.clock.Advance(settle)
	h.call(http.MethodGet, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestNetworkCreateValidation(t *testing.T) {
	h := newHarness(t)

	for name, tc := range map[string]struct {
		mutate func(*unikorn.NetworkCreate)
		status int
	}{
		"prefix too small":      {func(b *unikorn.NetworkCreate) { b.Spec.Prefix = "10.9.0.0/25" }, http.StatusBadRequest},
		"prefix not a CIDR":     {func(b *unikorn.NetworkCreate) { b.Spec.Prefix = "10.9.0.0" }, http.StatusBadRequest},
		"nameserver not IPv4":   {func(b *unikorn.NetworkCreate) { b.Spec.DNSNameservers = []string{"dns.example.com"} }, http.StatusBadRequest},
		"region not a UUID":     {func(b *unikorn.NetworkCreate) { b.Spec.RegionID = "sandbox-1" }, http.StatusBadRequest},
		"unknown region":        {func(b *unikorn.NetworkCreate) { b.Spec.RegionID = "b0000000-0000-4000-8000-0000000000ff" }, http.StatusNotFound},
		"unknown project":       {func(b *unikorn.NetworkCreate) { b.Spec.ProjectID = "a0000000-0000-4000-8000-0000000000ff" }, http.StatusNotFound},
		"foreign organization":  {func(b *unikorn.NetworkCreate) { b.Spec.OrganizationID = "a0000000-0000-4000-8000-0000000000ff" }, http.StatusForbidden},
		"reservation too short": {func(b *unikorn.NetworkCreate) { b.Spec.Reservations = &unikorn.NetworkReservations{PrefixLength: 24} }, http.StatusUnprocessableEntity},
		"reservation out of range": {func(b *unikorn.NetworkCreate) {
			b.Spec.Reservations = &unikorn.NetworkReservations{PrefixLength: 31}
		}, http.StatusBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			body := networkCreate("invalid", "10.9.0.0/24")
			tc.mutate(&body)
			assert.Equal(t, tc.status, h.call(http.MethodPost, "/api/v2/networks", body).status)
		})
	}

	missing := `{"metadata":{"name":"x"},"spec":{"organizationId":"` + OrganizationID + `","projectId":"` + ProjectID +
		`","regionId":"` + RegionID + `","prefix":"10.9.0.0/24"}}`
	body := h.call(http.MethodPost, "/api/v2/networks", missing).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Contains(t, body.ErrorDescription, "dnsNameservers")
}

func TestNetworksAreChargedToTheQuota(t *testing.T) {
	h := newHarness(t)

	// The three fixture networks use three of the five.
	first := h.createNetwork("fourth", "10.10.0.0/24")
	h.createNetwork("fifth", "10.11.0.0/24")

	body := h.call(http.MethodPost, "/api/v2/networks", networkCreate("sixth", "10.12.0.0/24")).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total networks allocation of 6 would exceed quota limit of 5", body.ErrorDescription)

	// Deleting releases the quota once the network is gone.
	h.call(http.MethodDelete, "/api/v2/networks/"+first.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodPost, "/api/v2/networks", networkCreate("sixth", "10.12.0.0/24")).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.clock.Advance(settle)
	h.createNetwork("sixth", "10.12.0.0/24")
}

func TestNetworkInUseCannotBeDeletedAndCascadesSecurityGroups(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("tenant")

	body := h.call(http.MethodDelete, "/api/v2/networks/"+NetworkDefaultID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "network is in use and cannot be deleted", body.ErrorDescription)

	h.call(http.MethodDelete, "/api/v2/servers/"+server.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodDelete, "/api/v2/networks/"+NetworkDefaultID, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.clock.Advance(settle)
	h.call(http.MethodDelete, "/api/v2/networks/"+NetworkDefaultID, nil).expect(http.StatusAccepted, nil)

	var group unikorn.SecurityGroup

	h.call(http.MethodGet, "/api/v2/securitygroups/"+SecurityGroupAllowSSHID, nil).expect(http.StatusOK, &group)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, group.Metadata.ProvisioningStatus)

	h.clock.Advance(settle)
	h.call(http.MethodGet, "/api/v2/securitygroups/"+SecurityGroupAllowSSHID, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.call(http.MethodGet, "/api/v2/securitygroups/"+SecurityGroupSecondarySSHID, nil).expect(http.StatusOK, nil)
}

func TestSecurityGroupLifecycleAndInUse(t *testing.T) {
	h := newHarness(t)

	port, portMax := 8000, 8080
	create := unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "range"},
		Spec: unikorn.SecurityGroupCreateSpec{
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
				{Direction: "ingress", Protocol: "tcp", Port: &port, PortMax: &portMax, Prefix: "10.0.0.0/8"},
			}},
			NetworkID: NetworkDefaultID,
		},
	}

	var group unikorn.SecurityGroup

	h.call(http.MethodPost, "/api/v2/securitygroups", create).expect(http.StatusCreated, &group)
	assert.Equal(t, ProjectID, group.Metadata.ProjectID, "inherited from the network")
	assert.Equal(t, NetworkDefaultID, group.Status.NetworkID)
	assert.Equal(t, RegionID, group.Status.RegionID)

	path := "/api/v2/securitygroups/" + group.Metadata.ID

	server := serverCreate("guarded")
	server.Spec.Networking = &unikorn.ServerNetworking{SecurityGroups: []string{group.Metadata.ID}}
	h.createServer(server)

	body := h.call(http.MethodDelete, path, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "security group is in use and cannot be deleted", body.ErrorDescription)

	update := unikorn.SecurityGroupUpdate{Metadata: unikorn.WriteMetadata{Name: "range"}, Spec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}}}
	h.call(http.MethodPut, path, update).expect(http.StatusAccepted, &group)
	assert.Empty(t, group.Spec.Rules)
}

func TestSecurityGroupRuleValidation(t *testing.T) {
	h := newHarness(t)

	port, low := 22, 10

	for name, rule := range map[string]unikorn.SecurityGroupRule{
		"direction":             {Direction: "sideways", Protocol: "tcp"},
		"protocol":              {Direction: "ingress", Protocol: "sctp"},
		"port on layer 3":       {Direction: "ingress", Protocol: "icmp", Port: &port},
		"range backwards":       {Direction: "ingress", Protocol: "tcp", Port: &port, PortMax: &low},
		"prefix not a CIDR":     {Direction: "ingress", Protocol: "tcp", Prefix: "10.0.0.1"},
		"port max without port": {Direction: "ingress", Protocol: "udp", PortMax: &port},
	} {
		t.Run(name, func(t *testing.T) {
			create := unikorn.SecurityGroupCreate{
				Metadata: unikorn.WriteMetadata{Name: "bad"},
				Spec: unikorn.SecurityGroupCreateSpec{
					SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{rule}},
					NetworkID:         NetworkDefaultID,
				},
			}
			h.call(http.MethodPost, "/api/v2/securitygroups", create).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}
}

func TestSSHCertificateAuthorities(t *testing.T) {
	h := newHarness(t)

	private, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)

	public, err := ssh.NewPublicKey(&private.PublicKey)
	require.NoError(t, err)

	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(public)))

	create := func(key string) unikorn.SSHCertificateAuthorityCreate {
		return unikorn.SSHCertificateAuthorityCreate{
			Metadata: unikorn.WriteMetadata{Name: "ops-ca"},
			Spec: unikorn.SSHCertificateAuthorityCreateSpec{
				SSHCertificateAuthoritySpec: unikorn.SSHCertificateAuthoritySpec{PublicKey: key},
				OrganizationID:              OrganizationID,
				ProjectID:                   ProjectID,
			},
		}
	}

	var ca unikorn.SSHCertificateAuthority

	h.call(http.MethodPost, "/api/v2/sshcertificateauthorities", create(line+" ops@example.com")).expect(http.StatusCreated, &ca)
	assert.Equal(t, line, ca.Spec.PublicKey, "normalized without the comment")
	assert.Equal(t, unikorn.ProvisioningProvisioned, ca.Metadata.ProvisioningStatus, "no controller, settled at once")

	for name, key := range map[string]string{
		"garbage":      "not a key",
		"options":      `command="true" ` + line,
		"two lines":    line + "\n" + line,
		"empty string": "",
	} {
		t.Run(name, func(t *testing.T) {
			h.call(http.MethodPost, "/api/v2/sshcertificateauthorities", create(key)).expectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
		})
	}

	server := serverCreate("signed")
	server.Spec.SSHCertificateAuthorityID = ca.Metadata.ID
	created := h.createServer(server)

	path := "/api/v2/sshcertificateauthorities/" + ca.Metadata.ID
	body := h.call(http.MethodDelete, path, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Contains(t, body.ErrorDescription, "in use")

	h.call(http.MethodDelete, "/api/v2/servers/"+created.Metadata.ID, nil).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)

	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodGet, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}
