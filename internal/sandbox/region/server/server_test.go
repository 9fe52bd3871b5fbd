package server_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestServerCreateIsPendingThenProvisionedAndRunning(t *testing.T) {
	h := sandboxtest.New(t)

	body := sandboxtest.ServerCreate("web-1")
	body.Metadata.Tags = unikorn.Tags{{Name: "role", Value: "web"}}
	body.Spec.Networking = &unikorn.ServerNetworking{SecurityGroups: []string{sandbox.SecurityGroupAllowSSHID}, PublicIP: true}

	created := h.CreateServer(body)

	wantID, err := unikorn.DeriveServerID(sandbox.NetworkDefaultID, "web-1")
	require.NoError(t, err)
	assert.Equal(t, wantID, created.Metadata.ID)
	assert.Equal(t, sandbox.OrganizationID, created.Metadata.OrganizationID)
	assert.Equal(t, sandbox.ProjectID, created.Metadata.ProjectID)
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthUnknown, created.Metadata.HealthStatus)
	assert.Empty(t, created.Status.PowerState)
	assert.Empty(t, created.Status.PrivateIP)
	assert.Equal(t, sandbox.RegionID, created.Status.RegionID)
	assert.Equal(t, sandbox.NetworkDefaultID, created.Status.NetworkID)

	h.Clock.Advance(600 * time.Millisecond)
	halfway := h.GetServer(created.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioning, halfway.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.PowerBuilding, halfway.Status.PowerState)

	h.Clock.Advance(sandboxtest.Settle)
	server := h.GetServer(created.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, server.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthHealthy, server.Metadata.HealthStatus)
	assert.Equal(t, unikorn.PowerRunning, server.Status.PowerState)
	assert.Equal(t, "10.0.0.128", server.Status.PrivateIP, "first address after the default /25 reservation")
	assert.Regexp(t, `^fa:16:3e:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}$`, server.Status.MACAddress)
	assert.NotEmpty(t, server.Status.PublicIP)
	assert.Equal(t, body.Metadata.Tags, server.Metadata.Tags)
}

func TestServerWithZeroDelayIsStillPendingInTheCreateResponse(t *testing.T) {
	h := sandboxtest.New(t, func(o *sandbox.Options) { o.ProvisionDelay = 0 })

	created := h.CreateServer(sandboxtest.ServerCreate("instant"))
	assert.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	server := h.GetServer(created.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, server.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.PowerRunning, server.Status.PowerState)
}

func TestServerNamesAreUniquePerNetworkAndImmutable(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("db")

	h.Call(http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("db")).ExpectError(http.StatusConflict, unikorn.ErrorConflict)

	other := sandboxtest.ServerCreate("db")
	other.Spec.NetworkID = sandbox.NetworkSecondaryID
	h.CreateServer(other)

	rename := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "database"},
		Spec:     server.Spec,
	}
	body := h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, rename).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)
	assert.Equal(t, "server names are immutable", body.ErrorDescription)
}

func TestServerUpdateKeepsOldStatusThenReprovisions(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("app")

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "app", Description: "updated", Tags: unikorn.Tags{{Name: "marker", Value: "1"}}},
		Spec:     unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID, Networking: &unikorn.ServerNetworking{PublicIP: true}},
	}

	var accepted unikorn.Server

	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, &accepted)
	assert.Equal(t, update.Metadata.Tags, accepted.Metadata.Tags, "the new spec")
	assert.True(t, accepted.Spec.Networking.PublicIP)
	assert.Equal(t, unikorn.ProvisioningProvisioned, accepted.Metadata.ProvisioningStatus, "the old status")
	assert.Empty(t, accepted.Status.PublicIP)

	assert.Equal(t, unikorn.ProvisioningProvisioning, h.GetServer(server.Metadata.ID).Metadata.ProvisioningStatus)

	h.Clock.Advance(sandboxtest.Settle)
	updated := h.GetServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, updated.Metadata.ProvisioningStatus)
	assert.Equal(t, server.Status.PrivateIP, updated.Status.PrivateIP, "an in-place update keeps the addresses")
	assert.NotEmpty(t, updated.Status.PublicIP)
	assert.Equal(t, "updated", updated.Metadata.Description)
}

// A write that changes nothing is not a change: the server stays provisioned, as a
// Kubernetes object keeps its generation.
func TestServerUpdateThatChangesNothingDoesNotReprovision(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("app")

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "app", Tags: unikorn.Tags{{Name: "marker", Value: "1"}}},
		Spec:     unikorn.ServerSpec{FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID},
	}
	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)
	require.Equal(t, unikorn.ProvisioningProvisioned, h.GetServer(server.Metadata.ID).Metadata.ProvisioningStatus)

	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)
	assert.Equal(t, unikorn.ProvisioningProvisioned, h.GetServer(server.Metadata.ID).Metadata.ProvisioningStatus)
}

func TestServerFlavorChangeRecreatesWithNewAddresses(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("rebuilt")

	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "rebuilt"},
		Spec:     unikorn.ServerSpec{FlavorID: sandbox.FlavorTinyID, ImageID: sandbox.ImageUbuntuID},
	}
	h.Call(http.MethodPut, "/api/v2/servers/"+server.Metadata.ID, update).Expect(http.StatusAccepted, nil)

	rebuilding := h.GetServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningProvisioning, rebuilding.Metadata.ProvisioningStatus)
	assert.Empty(t, rebuilding.Status.PrivateIP)
	assert.Equal(t, unikorn.PowerBuilding, rebuilding.Status.PowerState)

	h.Clock.Advance(sandboxtest.Settle)
	rebuilt := h.GetServer(server.Metadata.ID)
	assert.Equal(t, unikorn.PowerRunning, rebuilt.Status.PowerState)
	assert.NotEmpty(t, rebuilt.Status.PrivateIP)
	assert.NotEqual(t, server.Status.PrivateIP, rebuilt.Status.PrivateIP)
	assert.NotEqual(t, server.Status.MACAddress, rebuilt.Status.MACAddress)
	assert.Equal(t, server.Metadata.ID, rebuilt.Metadata.ID)
}

func TestServerDeleteDeprovisionsThenIsGone(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("doomed")
	path := "/api/v2/servers/" + server.Metadata.ID

	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)

	deleting := h.GetServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningDeprovisioning, deleting.Metadata.ProvisioningStatus)
	require.NotNil(t, deleting.Metadata.DeletionTime)

	h.Clock.Advance(300 * time.Millisecond)
	h.Call(http.MethodDelete, path, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodPut, path, unikorn.ServerUpdate{Metadata: unikorn.WriteMetadata{Name: "doomed"}, Spec: server.Spec}).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.Clock.Advance(300 * time.Millisecond)
	h.Call(http.MethodGet, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.Call(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// The name is free again.
	h.CreateServer(sandboxtest.ServerCreate("doomed"))
}

func TestServerPowerStateMachine(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateReadyServer("power")
	path := "/api/v2/servers/" + server.Metadata.ID

	expectPower := func(want string) {
		t.Helper()
		assert.Equal(t, want, h.GetServer(server.Metadata.ID).Status.PowerState)
	}

	invalid := func(verb, description string) {
		t.Helper()

		body := h.Call(http.MethodPost, path+"/"+verb, nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
		assert.Equal(t, description, body.ErrorDescription)
	}

	invalid("start", "server cannot be started in its current state")

	h.Call(http.MethodPost, path+"/softreboot", nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodPost, path+"/hardreboot", nil).Expect(http.StatusAccepted, nil)
	expectPower(unikorn.PowerRunning)

	h.Call(http.MethodPost, path+"/stop", nil).Expect(http.StatusAccepted, nil)
	expectPower(unikorn.PowerStopping)
	invalid("stop", "server cannot be stopped in its current state")

	h.Clock.Advance(sandboxtest.Settle)
	expectPower(unikorn.PowerStopped)
	invalid("stop", "server cannot be stopped in its current state")
	invalid("softreboot", "server cannot be rebooted in its current state")
	invalid("hardreboot", "server cannot be rebooted in its current state")

	h.Call(http.MethodPost, path+"/start", nil).Expect(http.StatusAccepted, nil)
	expectPower(unikorn.PowerPending)
	invalid("start", "server cannot be started in its current state")

	h.Clock.Advance(sandboxtest.Settle)
	expectPower(unikorn.PowerRunning)
}

func TestServerPowerNeedsAProvisionedServer(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateServer(sandboxtest.ServerCreate("early"))

	for _, verb := range []string{"start", "stop", "softreboot", "hardreboot"} {
		h.Call(http.MethodPost, "/api/v2/servers/"+server.Metadata.ID+"/"+verb, nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
	}

	h.Call(http.MethodPost, "/api/v2/servers/f0000000-0000-4000-8000-000000000000/stop", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestFailedServerStaysInError(t *testing.T) {
	h := sandboxtest.New(t)

	server := h.CreateServer(sandboxtest.ServerCreate("unlucky"))
	require.NoError(t, h.Sandbox.FailServer(server.Metadata.ID))

	h.Clock.Advance(sandboxtest.Settle)
	failed := h.GetServer(server.Metadata.ID)
	assert.Equal(t, unikorn.ProvisioningError, failed.Metadata.ProvisioningStatus)
	assert.Equal(t, unikorn.HealthError, failed.Metadata.HealthStatus)

	h.Call(http.MethodPost, "/sandbox/v1/servers/"+server.Metadata.ID+"/fail", nil).Expect(http.StatusNoContent, nil)
	require.Error(t, h.Sandbox.FailServer("f0000000-0000-4000-8000-000000000000"))
}

func TestServerSSHKeyIsSharedPerNetwork(t *testing.T) {
	h := sandboxtest.New(t)

	key := func(id string) string {
		t.Helper()

		var key unikorn.SSHKey

		h.Call(http.MethodGet, "/api/v2/servers/"+id+"/sshkey", nil).Expect(http.StatusOK, &key)

		return key.PrivateKey
	}

	first := h.CreateServer(sandboxtest.ServerCreate("one"))
	second := h.CreateServer(sandboxtest.ServerCreate("two"))

	elsewhere := sandboxtest.ServerCreate("three")
	elsewhere.Spec.NetworkID = sandbox.NetworkSecondaryID
	third := h.CreateServer(elsewhere)

	firstKey := key(first.Metadata.ID)
	assert.True(t, strings.HasPrefix(firstKey, "-----BEGIN OPENSSH PRIVATE KEY-----"))

	signer, err := ssh.ParsePrivateKey([]byte(firstKey))
	require.NoError(t, err)
	assert.Equal(t, ssh.KeyAlgoED25519, signer.PublicKey().Type())

	assert.Equal(t, firstKey, key(second.Metadata.ID))
	assert.NotEqual(t, firstKey, key(third.Metadata.ID))
}

func TestServerConsole(t *testing.T) {
	h := sandboxtest.New(t)

	early := h.CreateServer(sandboxtest.ServerCreate("early"))
	h.Call(http.MethodGet, "/api/v2/servers/"+early.Metadata.ID+"/consoleoutput", nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	server := h.CreateReadyServer("console")
	path := "/api/v2/servers/" + server.Metadata.ID

	var all, tail unikorn.ConsoleOutput

	h.Call(http.MethodGet, path+"/consoleoutput", nil).Expect(http.StatusOK, &all)
	assert.Contains(t, all.Contents, server.Status.PrivateIP)
	assert.Contains(t, all.Contents, "ubuntu 24.04")

	h.Call(http.MethodGet, path+"/consoleoutput?length=2", nil).Expect(http.StatusOK, &tail)
	lines := strings.Split(all.Contents, "\n")
	assert.Equal(t, strings.Join(lines[len(lines)-2:], "\n"), tail.Contents)
	assert.Equal(t, "console login: ", lines[len(lines)-1])

	h.Call(http.MethodGet, path+"/consoleoutput?length=lots", nil).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	var session unikorn.ConsoleSession

	h.Call(http.MethodGet, path+"/consolesessions", nil).Expect(http.StatusOK, &session)
	assert.True(t, strings.HasPrefix(session.URL, h.URL+"/"))
}

func TestServerCreateValidation(t *testing.T) {
	h := sandboxtest.New(t)

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
			b.Spec.Networking = &unikorn.ServerNetworking{SecurityGroups: []string{sandbox.SecurityGroupSecondarySSHID}}
		}, http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent},
		"SSH CA of another project": {func(b *unikorn.ServerCreate) { b.Spec.SSHCertificateAuthorityID = sandbox.OtherSSHCAID },
			http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent},
		"SSH CA with plain text user data": {func(b *unikorn.ServerCreate) {
			b.Spec.SSHCertificateAuthorityID = sandbox.SSHCAID
			b.Spec.UserData = userData("hello")
		}, http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent},
	} {
		t.Run(name, func(t *testing.T) {
			body := sandboxtest.ServerCreate("checked")
			tc.mutate(&body)
			h.Call(http.MethodPost, "/api/v2/servers", body).ExpectError(tc.status, tc.code)
		})
	}

	for name, text := range map[string]string{
		"cloud-config": "#cloud-config\npackages: [nginx]\n",
		"script":       "#!/bin/sh\necho hi\n",
		"gzip":         "\x1f\x8b\x08\x00",
		"multipart":    "Content-Type: multipart/mixed; boundary=x\n",
	} {
		t.Run("SSH CA with "+name, func(t *testing.T) {
			body := sandboxtest.ServerCreate("ca-" + name)
			body.Spec.SSHCertificateAuthorityID = sandbox.SSHCAID
			body.Spec.UserData = userData(text)

			server := h.CreateServer(body)
			assert.Equal(t, sandbox.SSHCAID, server.Status.SSHCertificateAuthorityID)
		})
	}
}

func TestServerInAnotherProjectOfTheOrganization(t *testing.T) {
	h := sandboxtest.New(t)

	body := sandboxtest.ServerCreate("other")
	body.Spec.NetworkID = sandbox.NetworkOtherID
	body.Spec.SSHCertificateAuthorityID = sandbox.OtherSSHCAID

	server := h.CreateServer(body)
	assert.Equal(t, sandbox.OtherProjectID, server.Metadata.ProjectID)
}
