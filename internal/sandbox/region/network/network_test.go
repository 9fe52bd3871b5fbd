package network_test

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

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/network"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestNetworkLifecycle(t *testing.T) {
	h := sandboxtest.New(t)

	reservations := network.DefaultReservations()

	network := h.CreateNetwork("extra", "192.168.0.0/23")
	assert.Equal(t, unikorn.ProvisioningPending, network.Metadata.ProvisioningStatus)
	assert.Equal(t, "192.168.0.0/23", network.Status.Prefix)
	assert.Equal(t, reservations, network.Status.Reservations)

	path := "/api/v2/networks/" + network.Metadata.ID

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, path, nil).Expect(http.StatusOK, &network)
	assert.Equal(t, unikorn.ProvisioningProvisioned, network.Metadata.ProvisioningStatus)

	update := unikorn.NetworkUpdate{Metadata: unikorn.WriteMetadata{Name: "renamed"}, Spec: unikorn.NetworkSpec{DNSNameservers: []string{}}}
	h.Call(http.MethodPut, path, update).Expect(http.StatusAccepted, &network)
	assert.Equal(t, "renamed", network.Metadata.Name)
	assert.Empty(t, network.Spec.DNSNameservers)

	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodPut, path, update).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestNetworkCreateValidation(t *testing.T) {
	h := sandboxtest.New(t)

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
			body := sandboxtest.NetworkCreate("invalid", "10.9.0.0/24")
			tc.mutate(&body)
			// As the project user: an organization it is not in is refused.
			assert.Equal(t, tc.status, h.CallAs(sandbox.DefaultToken, http.MethodPost, "/api/v2/networks", body).Status)
		})
	}

	missing := `{"metadata":{"name":"x"},"spec":{"organizationId":"` + sandbox.OrganizationID + `","projectId":"` + sandbox.ProjectID +
		`","regionId":"` + sandbox.RegionID + `","prefix":"10.9.0.0/24"}}`
	body := h.Call(http.MethodPost, "/api/v2/networks", missing).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	assert.Contains(t, body.ErrorDescription, "dnsNameservers")
}

func TestNetworksAreChargedToTheQuota(t *testing.T) {
	h := sandboxtest.New(t)

	// The three fixture networks use three of the five.
	first := h.CreateNetwork("fourth", "10.10.0.0/24")
	h.CreateNetwork("fifth", "10.11.0.0/24")

	body := h.Call(http.MethodPost, "/api/v2/networks", sandboxtest.NetworkCreate("sixth", "10.12.0.0/24")).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total networks allocation of 6 would exceed quota limit of 5", body.ErrorDescription)

	// Deleting releases the quota once the network is gone.
	h.Call(http.MethodDelete, "/api/v2/networks/"+first.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodPost, "/api/v2/networks", sandboxtest.NetworkCreate("sixth", "10.12.0.0/24")).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.Clock.Advance(sandboxtest.Settle)
	h.CreateNetwork("sixth", "10.12.0.0/24")
}

func TestNetworkInUseCannotBeDeletedAndCascadesSecurityGroups(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("tenant")

	body := h.Call(http.MethodDelete, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "network is in use and cannot be deleted", body.ErrorDescription)

	h.Call(http.MethodDelete, "/api/v2/servers/"+server.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodDelete, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodDelete, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).Expect(http.StatusAccepted, nil)

	var group unikorn.SecurityGroup

	h.Call(http.MethodGet, "/api/v2/securitygroups/"+sandbox.SecurityGroupAllowSSHID, nil).Expect(http.StatusOK, &group)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, group.Metadata.ProvisioningStatus)

	h.Clock.Advance(sandboxtest.Settle)
	h.Call(http.MethodGet, "/api/v2/securitygroups/"+sandbox.SecurityGroupAllowSSHID, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.Call(http.MethodGet, "/api/v2/securitygroups/"+sandbox.SecurityGroupSecondarySSHID, nil).Expect(http.StatusOK, nil)
}

func TestSecurityGroupLifecycleAndInUse(t *testing.T) {
	h := sandboxtest.New(t)

	port, portMax := 8000, 8080
	create := unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "range"},
		Spec: unikorn.SecurityGroupCreateSpec{
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
				{Direction: "ingress", Protocol: "tcp", Port: &port, PortMax: &portMax, Prefix: "10.0.0.0/8"},
			}},
			NetworkID: sandbox.NetworkDefaultID,
		},
	}

	var group unikorn.SecurityGroup

	h.Call(http.MethodPost, "/api/v2/securitygroups", create).Expect(http.StatusCreated, &group)
	assert.Equal(t, sandbox.ProjectID, group.Metadata.ProjectID, "inherited from the network")
	assert.Equal(t, sandbox.NetworkDefaultID, group.Status.NetworkID)
	assert.Equal(t, sandbox.RegionID, group.Status.RegionID)

	path := "/api/v2/securitygroups/" + group.Metadata.ID

	server := sandboxtest.ServerCreate("guarded")
	server.Spec.Networking = &unikorn.ServerNetworking{SecurityGroups: []string{group.Metadata.ID}}
	h.CreateServer(server)

	body := h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "security group is in use and cannot be deleted", body.ErrorDescription)

	update := unikorn.SecurityGroupUpdate{Metadata: unikorn.WriteMetadata{Name: "range"}, Spec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}}}
	h.Call(http.MethodPut, path, update).Expect(http.StatusAccepted, &group)
	assert.Empty(t, group.Spec.Rules)
}

func TestSecurityGroupRuleValidation(t *testing.T) {
	h := sandboxtest.New(t)

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
					NetworkID:         sandbox.NetworkDefaultID,
				},
			}
			h.Call(http.MethodPost, "/api/v2/securitygroups", create).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		})
	}
}

func TestSSHCertificateAuthorities(t *testing.T) {
	h := sandboxtest.New(t)

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
				OrganizationID:              sandbox.OrganizationID,
				ProjectID:                   sandbox.ProjectID,
			},
		}
	}

	var ca unikorn.SSHCertificateAuthority

	h.Call(http.MethodPost, "/api/v2/sshcertificateauthorities", create(line+" ops@example.com")).Expect(http.StatusCreated, &ca)
	assert.Equal(t, line, ca.Spec.PublicKey, "normalized without the comment")
	assert.Equal(t, unikorn.ProvisioningProvisioned, ca.Metadata.ProvisioningStatus, "no controller, settled at once")

	for name, key := range map[string]string{
		"garbage":      "not a key",
		"options":      `command="true" ` + line,
		"two lines":    line + "\n" + line,
		"empty string": "",
	} {
		t.Run(name, func(t *testing.T) {
			h.Call(http.MethodPost, "/api/v2/sshcertificateauthorities", create(key)).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
		})
	}

	server := sandboxtest.ServerCreate("signed")
	server.Spec.SSHCertificateAuthorityID = ca.Metadata.ID
	created := h.CreateServer(server)

	path := "/api/v2/sshcertificateauthorities/" + ca.Metadata.ID
	body := h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Contains(t, body.ErrorDescription, "in use")

	h.Call(http.MethodDelete, "/api/v2/servers/"+created.Metadata.ID, nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)

	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

// Region's handlers read a network or a security group through the controller's
// cache and patch it under an optimistic lock holding the version read: an update
// that lands while the cache trails the object's last write (the controller's
// provisioning, here) loses the lock, writes nothing and answers 500.
func TestNetworkUpdatesRacingTheirControllerLoseTheLock(t *testing.T) {
	h := sandboxtest.New(t, sandboxtest.WithReadLag(7))

	network := h.CreateNetwork("raced", "10.32.0.0/24")
	networkPath := "/api/v2/networks/" + network.Metadata.ID

	var group unikorn.SecurityGroup

	h.Call(http.MethodPost, "/api/v2/securitygroups", unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "raced"},
		Spec: unikorn.SecurityGroupCreateSpec{
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}}, NetworkID: network.Metadata.ID,
		},
	}).Expect(http.StatusCreated, &group)

	groupPath := "/api/v2/securitygroups/" + group.Metadata.ID
	updates := func(name string) map[string]any {
		metadata := unikorn.WriteMetadata{Name: name}

		return map[string]any{
			networkPath: unikorn.NetworkUpdate{Metadata: metadata, Spec: unikorn.NetworkSpec{DNSNameservers: []string{}}},
			groupPath:   unikorn.SecurityGroupUpdate{Metadata: metadata, Spec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}}},
		}
	}
	names := func() []string {
		h.Call(http.MethodGet, networkPath, nil).Expect(http.StatusOK, &network)
		h.Call(http.MethodGet, groupPath, nil).Expect(http.StatusOK, &group)

		return []string{network.Metadata.Name, group.Metadata.Name}
	}

	// Both provisioned, and the cache caught up: an update is taken.
	h.Clock.Advance(sandboxtest.ReadLag + sandboxtest.Settle)
	h.Call(http.MethodGet, networkPath, nil).Expect(http.StatusOK, nil)
	h.Clock.Advance(sandboxtest.ReadLag)

	for path, update := range updates("first") {
		h.Call(http.MethodPut, path, update).Expect(http.StatusAccepted, nil)
	}

	// The controller provisions them again, and the cache trails its write: the next
	// update carries a version that is no longer current, and writes nothing.
	h.Clock.Advance(sandbox.DefaultOptions().ProvisionDelay)

	for path, update := range updates("lost") {
		body := h.Call(http.MethodPut, path, update).ExpectError(http.StatusInternalServerError, unikorn.ErrorServerError)
		assert.Equal(t, "an internal error has occurred, please contact support", body.ErrorDescription, path)
	}

	h.Clock.Advance(sandboxtest.ReadLag + sandboxtest.Settle)
	assert.Equal(t, []string{"first", "first"}, names())

	// Sent again once the cache has caught up, it is taken.
	h.Clock.Advance(sandboxtest.ReadLag)

	for path, update := range updates("renamed") {
		h.Call(http.MethodPut, path, update).Expect(http.StatusAccepted, nil)
	}

	h.Clock.Advance(sandboxtest.ReadLag + sandboxtest.Settle)
	assert.Equal(t, []string{"renamed", "renamed"}, names())
}
