// Package sshkey serves the private SSH key of a compute instance twice: as an
// ephemeral resource, which keeps it out of plan and state, and as a data source for
// configurations that need it in state and accept that.
package sshkey

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceref"
)

// TypeName is the type name of both the ephemeral resource and the data source.
const TypeName = "unikorn_compute_instance_ssh_key"

const (
	privateKeyDescription = "The private key that logs in to the instance, exactly as Unikorn returns it " +
		"(PEM text). Every instance on one network has the same key, because it belongs to the network's cloud identity."
	publicKeyDescription = "The public half of `private_key` as one OpenSSH `authorized_keys` line, " +
		"e.g. `ssh-ed25519 AAAA…`; null when the private key cannot be parsed (for example when it is encrypted)."
)

// model is the configuration and result of both types.
type model struct {
	instanceref.Model

	PrivateKey       types.String `tfsdk:"private_key"`
	PublicKeyOpenSSH types.String `tfsdk:"public_key_openssh"`
}

// read fills the key in from the cloud.
func (m *model) read(ctx context.Context, service compute.Instances) diag.Diagnostics {
	key, err := service.SSHKey(ctx, m.Ref())
	if err != nil {
		return diagnostic.Compute("Unable to read the instance's SSH key", err)
	}

	m.PrivateKey = types.StringValue(key)
	m.PublicKeyOpenSSH = publicKeyOpenSSH(key)

	return nil
}

// publicKeyOpenSSH derives the authorized_keys line of a private key. The key is
// shown as the cloud gives it whatever its format, so a key this cannot read is no
// error: only the derived value is missing.
func publicKeyOpenSSH(privateKey string) types.String {
	signer, err := ssh.ParsePrivateKey([]byte(privateKey))
	if err != nil {
		return types.StringNull()
	}

	return types.StringValue(strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey()))))
}
