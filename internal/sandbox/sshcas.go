package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func sshCAMetadata(ca *unikorn.SSHCertificateAuthority) *unikorn.ProjectScopedMetadata {
	return &ca.Metadata
}

func (s *Sandbox) listSSHCertificateAuthorities(req *core.Request) (*core.Reply, error) {
	q, err := parseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	return replyOK(selectList(q, req.Caller, s.world.SSHCertificateAuthorities, func(ca *unikorn.SSHCertificateAuthority) (unikorn.SSHCertificateAuthority, listing) {
		return *ca, projectListing(&ca.Metadata, "", "")
	})), nil
}

// newSSHCertificateAuthority builds an SSH CA. It has no controller, so it is
// provisioned and healthy from the start.
func newSSHCertificateAuthority(id string, write unikorn.WriteMetadata, organizationID, projectID, publicKey string, now time.Time) *unikorn.SSHCertificateAuthority {
	ca := &unikorn.SSHCertificateAuthority{
		Metadata: projectMetadata(id, write, organizationID, projectID, now),
		Spec:     unikorn.SSHCertificateAuthoritySpec{PublicKey: publicKey},
	}

	applyProvisioning(&ca.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

	return ca
}

// caKeyTypes are the key types region accepts for a certificate authority.
var caKeyTypes = map[string]bool{
	ssh.KeyAlgoED25519:  true,
	ssh.KeyAlgoRSA:      true,
	ssh.KeyAlgoECDSA256: true,
	ssh.KeyAlgoECDSA384: true,
	ssh.KeyAlgoECDSA521: true,
}

// normalizeCAPublicKey accepts exactly one OpenSSH authorized-key line without
// options and returns it without its comment.
func normalizeCAPublicKey(line string) (string, error) {
	key, _, options, rest, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return "", errUnprocessable("public key is not a valid OpenSSH authorized key: %v", err)
	}

	if len(options) > 0 {
		return "", errUnprocessable("public key must not carry options")
	}

	if len(strings.TrimSpace(string(rest))) > 0 {
		return "", errUnprocessable("public key must be a single line")
	}

	if !caKeyTypes[key.Type()] {
		return "", errUnprocessable("public key type %s is not supported", key.Type())
	}

	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))), nil
}

func (s *Sandbox) createSSHCertificateAuthority(req *core.Request) (*core.Reply, error) {
	var body unikorn.SSHCertificateAuthorityCreate
	if err := decodeBody(req.Request, &body, requiredWith("spec", "spec.organizationId", "spec.projectId", "spec.publicKey")...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := core.RequireProject(req.Store, req.Caller, spec.OrganizationID, spec.ProjectID, rbacSSHCAs, opCreate); err != nil {
		return nil, err
	}

	publicKey, err := normalizeCAPublicKey(spec.PublicKey)
	if err != nil {
		return nil, err
	}

	ca := newSSHCertificateAuthority(newResourceID(), body.Metadata, spec.OrganizationID, spec.ProjectID, publicKey, req.Now)
	s.world.SSHCertificateAuthorities[ca.Metadata.ID] = ca

	return replyCreated(ca), nil
}

func (s *Sandbox) getSSHCertificateAuthority(req *core.Request) (*core.Reply, error) {
	ca, err := lookup(s.world.SSHCertificateAuthorities, req.PathValue("sshCertificateAuthorityID"), req.Caller, sshCAMetadata, rbacSSHCAs, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(ca), nil
}

// deleteSSHCertificateAuthority removes a CA at once: without a controller there is
// nothing to deprovision.
func (s *Sandbox) deleteSSHCertificateAuthority(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("sshCertificateAuthorityID")

	if _, err := lookup(s.world.SSHCertificateAuthorities, id, req.Caller, sshCAMetadata, rbacSSHCAs, opDelete); err != nil {
		return nil, err
	}

	for _, server := range s.world.Servers {
		if server.Server.Status.SSHCertificateAuthorityID == id {
			return nil, errForbidden("SSH certificate authority is in use and cannot be deleted")
		}
	}

	delete(s.world.SSHCertificateAuthorities, id)

	return replyAccepted(nil), nil
}
