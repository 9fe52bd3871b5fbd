// Package sshcertificateauthority is region's SSH certificate authorities
// (pkg/handler/sshcertificateauthority): the CAs a project's servers trust for SSH. A
// CA has no controller: it is provisioned when made and gone when deleted. The servers
// that name it hold it in use. Other families read CAs as
// unikorn.SSHCertificateAuthority.
package sshcertificateauthority

import (
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's SSH certificate authorities.
var Family = core.Family{Name: "sshcertificateauthority", Register: register}

const (
	// ObjectKind is a CA's kind among the objects the sandbox holds.
	ObjectKind = "sshCertificateAuthority"

	rbacSSHCAs = "region:sshcertificateauthorities:v2"
)

var authorities = &core.Kind[unikorn.SSHCertificateAuthority]{
	Name:       "sshCertificateAuthorities",
	Noun:       "region SSH certificate authority",
	Project:    func(ca *unikorn.SSHCertificateAuthority) *unikorn.ProjectScopedMetadata { return &ca.Metadata },
	ObjectKind: ObjectKind,
}

// Public keys of the fixture SSH certificate authorities, in normalized form.
const (
	sandboxCAPublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBzTsPHmWKzGT4Ppj0gjE9I0tO/bkR4jUIXrz1g0Nl0Z"
	otherCAPublicKey   = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAR77nRvdG65Y6b93lGIa4bC2vIcV9fjAUG7DUTcHYQU"
)

func register(s *core.Server) error {
	core.Register(s, authorities)
	core.Expose(s, authorities, core.View[unikorn.SSHCertificateAuthority, unikorn.SSHCertificateAuthority]{
		Show: func(ca *unikorn.SSHCertificateAuthority) *unikorn.SSHCertificateAuthority { return ca },
	})

	s.Handle("GET /api/v2/sshcertificateauthorities", list)
	s.Handle("POST /api/v2/sshcertificateauthorities", create)
	s.Handle("GET /api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}", get)
	s.Handle("DELETE /api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}", remove)

	s.Fixture(fixtures)

	return nil
}

// fixtures are the fixture CAs, one in each of the fixture organization's projects.
func fixtures(st *core.Store) error {
	for _, ca := range []struct{ id, name, project, key string }{
		{fixture.SSHCAID, "sandbox-ca", fixture.ProjectID, sandboxCAPublicKey},
		{fixture.OtherSSHCAID, "other-ca", fixture.OtherProjectID, otherCAPublicKey},
	} {
		authorities.Put(st, ca.id, newAuthority(ca.id, unikorn.WriteMetadata{Name: ca.name}, fixture.OrganizationID, ca.project, ca.key, core.FixtureTime))
	}

	return nil
}

func metadataOf(ca *unikorn.SSHCertificateAuthority) *unikorn.ProjectScopedMetadata {
	return &ca.Metadata
}

func list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	return core.OK(core.SelectList(q, req.Caller, rbacSSHCAs, authorities.Records(req.Store), func(ca *unikorn.SSHCertificateAuthority) (unikorn.SSHCertificateAuthority, core.Listing) {
		return *ca, core.ProjectListing(&ca.Metadata, "", "")
	})), nil
}

// newAuthority builds an SSH CA. It has no controller, so it is provisioned and healthy
// from the start.
func newAuthority(id string, write unikorn.WriteMetadata, organizationID, projectID, publicKey string, now time.Time) *unikorn.SSHCertificateAuthority {
	ca := &unikorn.SSHCertificateAuthority{
		Metadata: core.ProjectMetadata(id, write, organizationID, projectID, now),
		Spec:     unikorn.SSHCertificateAuthoritySpec{PublicKey: publicKey},
	}

	core.ApplyProvisioning(&ca.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

	return ca
}

// keyTypes are the key types region accepts for a certificate authority.
var keyTypes = map[string]bool{
	ssh.KeyAlgoED25519:  true,
	ssh.KeyAlgoRSA:      true,
	ssh.KeyAlgoECDSA256: true,
	ssh.KeyAlgoECDSA384: true,
	ssh.KeyAlgoECDSA521: true,
}

// normalizePublicKey accepts exactly one OpenSSH authorized-key line without options
// and returns it without its comment.
func normalizePublicKey(line string) (string, error) {
	key, _, options, rest, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return "", core.Unprocessable("public key is not a valid OpenSSH authorized key: %v", err)
	}

	if len(options) > 0 {
		return "", core.Unprocessable("public key must not carry options")
	}

	if len(strings.TrimSpace(string(rest))) > 0 {
		return "", core.Unprocessable("public key must be a single line")
	}

	if !keyTypes[key.Type()] {
		return "", core.Unprocessable("public key type %s is not supported", key.Type())
	}

	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))), nil
}

func create(req *core.Request) (*core.Reply, error) {
	var body unikorn.SSHCertificateAuthorityCreate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith("spec", "spec.organizationId", "spec.projectId", "spec.publicKey")...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := core.RequireProject(req.Store, req.Caller, spec.OrganizationID, spec.ProjectID, rbacSSHCAs, core.OpCreate); err != nil {
		return nil, err
	}

	publicKey, err := normalizePublicKey(spec.PublicKey)
	if err != nil {
		return nil, err
	}

	ca := newAuthority(core.NewResourceID(), body.Metadata, spec.OrganizationID, spec.ProjectID, publicKey, req.Now)
	authorities.Put(req.Store, ca.Metadata.ID, ca)

	return core.Created(ca), nil
}

func get(req *core.Request) (*core.Reply, error) {
	ca, err := core.Lookup(authorities.Records(req.Store), req.PathValue("sshCertificateAuthorityID"), req.Caller, metadataOf, rbacSSHCAs, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(ca), nil
}

// remove deletes a CA at once: without a controller there is nothing to deprovision.
// The servers that use it hold it.
func remove(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("sshCertificateAuthorityID")

	if _, err := core.Lookup(authorities.Records(req.Store), id, req.Caller, metadataOf, rbacSSHCAs, core.OpDelete); err != nil {
		return nil, err
	}

	if core.Held(req.Store, core.RefTo[unikorn.SSHCertificateAuthority](id)) {
		return nil, core.Forbidden("SSH certificate authority is in use and cannot be deleted")
	}

	authorities.Delete(req.Store, id)

	return core.Accepted(nil), nil
}
