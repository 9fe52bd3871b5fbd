package sandbox

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestServerCreateIsPendingThenProvisionedAndRunning(t *testing.T) {
	h := newHarness(t)

	body := serverCreate("web-1")
	body.Metadata.Tags = unikorn.Tags{{Name: "role", Value: "web"}}
	body.Spec.Networking = &unikorn.ServerNetworking{SecurityGroups: []string{SecurityGroupAllowSSHID}, PublicIP: true}

	created := h.createServer(body)

	wantID, err := unikorn.DeriveServerID(NetworkDefaultID, "web-1")
	require.NoError(t, err)
	assert.Equal(t, wantID, created.Metadata.ID)
	assert.Equal(t, OrganizationID, created.Metadata.OrganizationID)
	assert.Equal(t, ProjectID, created.Metadata.ProjectID)
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthUnknown, created.Metadata.HealthStatus)
	assert.Empty(t, created.Status.PowerState)
	assert.Empty(t, created.Status.PrivateIP)
	assert.Equal(t, RegionID, created.Status.RegionID)
	assert.Equal(t, NetworkDefaultID, created.Status.NetworkID)

	h.clock.Advance(600 * time.Millisecond)
	halfway := h.getServer(created.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioning, halfway.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.PowerBuilding, halfway.Status.PowerState)

	h.clock.Advance(settle)
	server := h.getServer(created.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, server.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthHealthy, server.Metadata.HealthStatus)
	assert.Equal(t, unikorn.PowerRunning, server.Status.PowerState)
	assert.Equal(t, "10.0.0.128", server.Status.PrivateIP, "first address after the default /25 reservation")
	assert.Regexp(t, `^fa:16:3e:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}$`, server.Status.MACAddress)
	assert.NotEmpty(t, server.Status.PublicIP)
	assert.Equal(t, body.Metadata.Tags, server.Metadata.Tags)
}

func TestServerWithZeroDelayIsStillPendingInTheCreateResponse(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.ProvisionDelay = 0 })

	created := h.createServer(serverCreate("instant"))
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	server := h.getServer(created.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, server.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.PowerRunning, server.Status.PowerState)
}

func TestServerNamesAreUniquePerNetworkAndImmutable(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("db")

	h.call(http.MethodPost, "/api/v2/servers", serverCreate("db")).expectError(http.StatusConflict, unikorn.ErrorConflict)

	other := serverCreate("db")
	other.Spec.NetworkID = NetworkSecondaryID
	h.createServer(other)

	rename := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "database"},
		Spec:     server.Spec,
	}
	body := h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, rename).expectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
	assert.Equal(t, "server names are immutable", body.ErrorDescription)
}

func TestServerUpdateKeepsOldStatusThenReprovisions(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("app")

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "app", Description: "updated", Tags: unikorn.Tags{{Name: "marker", Value: "1"}}},
		Spec:     unikorn.ServerSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID, Networking: &unikorn.ServerNetworking{PublicIP: true}},
	}

	var accepted unikorn.Server

	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, &accepted)
	assert.Equal(t, update.Metadata.Tags, accepted.Metadata.Tags, "the new spec")
	assert.True(t, accepted.Spec.Networking.PublicIP)
	assert.Equal(t, unikorn.ProvisioningProvisioned, accepted.Metadata.ProvisioningStatus, "the old status")
	assert.Empty(t, accepted.Status.PublicIP)

	assert.Equal(t, unikorn.ProvisioningProvisioning, h.getServer(server.Metadata.ID).Metadata.ProvisioningStatus)

	h.clock.Advance(settle)
	updated := h.getServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, updated.Metadata.ProvisioningStatus)
	assert.Equal(t, server.Status.PrivateIP, updated.Status.PrivateIP, "an in-place update keeps the addresses")
	assert.NotEmpty(t, updated.Status.PublicIP)
	assert.Equal(t, "updated", updated.Metadata.Description)
}

// A write that changes nothing is not a change: the server stays provisioned, as a
// Kubernetes object keeps its generation.
func TestServerUpdateThatChangesNothingDoesNotReprovision(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("app")

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "app", Tags: unikorn.Tags{{Name: "marker", Value: "1"}}},
		Spec:     unikorn.ServerSpec{FlavorID: FlavorStandardID, ImageID: ImageUbuntuID},
	}
	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)
	h.clock.Advance(settle)
	require.Equal(t, unikorn.ProvisioningProvisioned, h.getServer(server.Metadata.ID).Metadata.ProvisioningStatus)

	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningProvisioned, h.getServer(server.Metadata.ID).Metadata.ProvisioningStatus)
}

func TestServerFlavorChangeRecreatesWithNewAddresses(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("rebuilt")

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "rebuilt"},
		Spec:     unikorn.ServerSpec{FlavorID: FlavorTinyID, ImageID: ImageUbuntuID},
	}
	h.call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).expect(http.StatusAccepted, nil)

	rebuilding := h.getServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioning, rebuilding.Metadata.ProvisioningStatus)
	assert.Empty(t, rebuilding.Status.PrivateIP)
	assert.Equal(t, unikorn.PowerBuilding, rebuilding.Status.PowerState)

	h.clock.Advance(settle)
	rebuilt := h.getServer(server.Metadata.ID)
	assert.Equal(t, unikorn.PowerRunning, rebuilt.Status.PowerState)
	assert.NotEmpty(t, rebuilt.Status.PrivateIP)
	assert.NotEqual(t, server.Status.PrivateIP, rebuilt.Status.PrivateIP)
	assert.NotEqual(t, server.Status.MACAddress, rebuilt.Status.MACAddress)
	assert.Equal(t, server.Metadata.ID, rebuilt.Metadata.ID)
}

func TestServerDeleteDeprovisionsThenIsGone(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("doomed")
	path := "/api/v2/servers/" + server.Metadata.ID

	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)

	deleting := h.getServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, deleting.Metadata.ProvisioningStatus)
	require.NotNil(t, deleting.Metadata.DeletionTime)

	h.clock.Advance(300 * time.Millisecond)
	h.call(http.MethodDelete, path, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodPut, path, unikorn.ServerUpdate{Metadata: unikorn.WriteMetadata{Name: "doomed"}, Spec: server.Spec}).
		expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.clock.Advance(300 * time.Millisecond)
	h.call(http.MethodGet, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.call(http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// The name is free again.
	h.createServer(serverCreate("doomed"))
}

func TestServerPowerStateMachine(t *testing.T) {
	h := newHarness(t)

	server := h.createReadyServer("power")
	path := "/api/v2/servers/" + server.Metadata.ID

	expectPower := func(want string) {
		t.Helper()
		assert.Equal(t, want, h.getServer(server.Metadata.ID).Status.PowerState)
	}

	invalid := func(verb, description string) {
		t.Helper()

		body := h.call(http.MethodPost, path+"/"+verb, nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		assert.Equal(t, description, body.ErrorDescription)
	}

	invalid("start", "server cannot be started in its current state")

	h.call(http.MethodPost, path+"/softreboot", nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodPost, path+"/hardreboot", nil).expect(http.StatusAccepted, nil)
	expectPower(unikorn.PowerRunning)

	h.call(http.MethodPost, path+"/stop", nil).expect(http.StatusAccepted, nil)
	expectPower(unikorn.PowerStopping)
	invalid("stop", "server cannot be stopped in its current state")

	h.clock.Advance(settle)
	expectPower(unikorn.PowerStopped)
	invalid("stop", "server cannot be stopped in its current state")
	invalid("softreboot", "server cannot be rebooted in its current state")
	invalid("hardreboot", "server cannot be rebooted in its current state")

	h.call(http.MethodPost, path+"/start", nil).expect(http.StatusAccepted, nil)
	expectPower(unikorn.PowerPending)
	invalid("start", "server cannot be started in its current state")

	h.clock.Advance(settle)
	expectPower(unikorn.PowerRunning)
}

func TestServerPowerNeedsAProvisionedServer(t *testing.T) {
	h := newHarness(t)

	server := h.createServer(serverCreate("early"))

	for _, verb := range []string{"start", "stop", "softreboot", "hardreboot"} {
		h.call(http.MethodPost, "/api/v2/servers/"+server.Metadata.ID+"/"+verb, nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	}

	h.call(http.MethodPost, "/api/v2/servers/f0000000-0000-4000-8000-000000000000/stop", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestFailedServerStaysInError(t *testing.T) {
	h := newHarness(t)

	server := h.createServer(serverCreate("unlucky"))
	require.NoError(t, h.sb.FailServer(server.Metadata.ID))

	h.clock.Advance(settle)
	failed := h.getServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningError, failed.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthError, failed.Metadata.HealthStatus)

	h.call(http.MethodPost, "/sandbox/v1/servers/"+server.Metadata.ID+"/fail", nil).expect(http.StatusNoContent, nil)
	require.Error(t, h.sb.FailServer("f0000000-0000-4000-8000-000000000000"))
}

func TestServerSSHKeyIsSharedPerNetwork(t *testing.T) {
	h := newHarness(t)

	key := func(id string) string {
		t.Helper()

		var key unikorn.SSHKey

		h.call(http.MethodGet, "/api/v2/servers/"+id+"/sshkey", nil).expect(http.StatusOK, &key)

		return key.PrivateKey
	}

	first := h.createServer(serverCreate("one"))
	second := h.createServer(serverCreate("two"))

	elsewhere := serverCreate("three")
	elsewhere.Spec.NetworkID = NetworkSecondaryID
	third := h.createServer(elsewhere)

	firstKey := key(first.Metadata.ID)
	assert.True(t, strings.HasPrefix(firstKey, "-----BEGIN OPENSSH PRIVATE KEY-----"))

	signer, err := ssh.ParsePrivateKey([]byte(firstKey))
	require.NoError(t, err)
	assert.Equal(t, ssh.KeyAlgoED25519, signer.PublicKey().Type())

	assert.Equal(t, firstKey, key(second.Metadata.ID))
	assert.NotEqual(t, firstKey, key(third.Metadata.ID))
}

func TestServerConsole(t *testing.T) {
	h := newHarness(t)

	early := h.createServer(serverCreate("early"))
	h.call(http.MethodGet, "/api/v2/servers/"+early.Metadata.ID+"/consoleoutput", nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	server := h.createReadyServer("console")
	path := "/api/v2/servers/" + server.Metadata.ID

	var all, tail unikorn.ConsoleOutput

	h.call(http.MethodGet, path+"/consoleoutput", nil).expect(http.StatusOK, &all)
	assert.Contains(t, all.Contents, server.Status.PrivateIP)
	assert.Contains(t, all.Contents, "ubuntu 24.04")

	h.call(http.MethodGet, path+"/consoleoutput?length=2", nil).expect(http.StatusOK, &tail)
	lines := strings.Split(all.Contents, "\n")
	assert.Equal(t, strings.Join(lines[len(lines)-2:], "\n"), tail.Contents)
	assert.Equal(t, "console login: ", lines[len(lines)-1])

	h.call(http.MethodGet, path+"/consoleoutput?length=lots", nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	var session unikorn.ConsoleSession

	h.call(http.MethodGet, path+"/consolesessions", nil).expect(http.StatusOK, &session)
	assert.True(t, strings.HasPrefix(session.URL, h.url+"/"))
}

func TestServerCreateValidation(t *testing.T) {
	h := newHarness(t)

	userData := func(text string) string { return base64.StdEncoding.EncodeToString([]byte(text)) }

	for name, tc := range map[string]struct {
		mutate func(*unikorn.ServerCreate)
		status int
		code   string
	}{
		"unknown network": {func(b *unikorn.ServerCreate) { b.Spec.NetworkID = "c0000000-0000-4000-8000-0000000000ff" }, http.StatusNotFound, unikorn.ErrorNotFound},
		"unknown flavor":  {func(b *unikorn.ServerCreate) { b.Spec.FlavorID = "f0000000-0000-4000-8000-000000000000" }, http.StatusBadRequest, unikorn.ErrorInvalidRequest},
		"unknown image":   {func(b *unikorn.ServerCreate) { b.Spec.ImageID = "f0000000-0000-4000-8000-000000000000" }, http.StatusBadRequest, unikorn.ErrorInvalidRequest},
		"user data not base64": {func(b *unikorn.ServerCreate) { b.Spec.UserData = "#cloud-config" },
			http.StatusBadRequest, unikorn.ErrorInvalidRequest},
		"security group of another network": {func(b *unikorn.ServerCreate) {
			b.Spec.Networking = &unikorn.ServerNetworking{SecurityGroups: []string{SecurityGroupSecondarySSHID}}
		}, http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent},
		"SSH CA of another project": {func(b *unikorn.ServerCreate) { b.Spec.SSHCertificateAuthorityID = OtherSSHCAID },
			http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent},
		"SSH CA with plain text user data": {func(b *unikorn.ServerCreate) {
			b.Spec.SSHCertificateAuthorityID = SSHCAID
			b.Spec.UserData = userData("hello")
		}, http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent},
	} {
		t.Run(name, func(t *testing.T) {
			body := serverCreate("checked")
			tc.mutate(&body)
			h.call(http.MethodPost, "/api/v2/servers", body).expectError(tc.status, tc.code)
		})
	}

	for name, text := range map[string]string{
		"cloud-config": "#cloud-config\npackages: [nginx]\n",
		"script":       "#!/bin/sh\necho hi\n",
		"gzip":         "\x1f\x8b\x08\x00",
		"multipart":    "Content-Type: multipart/mixed; boundary=x\n",
	} {
		t.Run("SSH CA with "+name, func(t *testing.T) {
			body := serverCreate("ca-" + name)
			body.Spec.SSHCertificateAuthorityID = SSHCAID
			body.Spec.UserData = userData(text)

			server := h.createServer(body)
			assert.Equal(t, SSHCAID, server.Status.SSHCertificateAuthorityID)
		})
	}
}

func TestServerInAnotherProjectOfTheOrganization(t *testing.T) {
	h := newHarness(t)

	body := serverCreate("other")
	body.Spec.NetworkID = NetworkOtherID
	body.Spec.SSHCertificateAuthorityID = OtherSSHCAID

	server := h.createServer(body)
	assert.Equal(t, OtherProjectID, server.Metadata.ProjectID)
}
