package networking

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
)

// SSHCertificateAuthorityTypeName is the SSH certificate authority data source's Terraform type.
const SSHCertificateAuthorityTypeName = "unikorn_ssh_certificate_authority"

// NewSSHCertificateAuthorityDataSource returns the unikorn_ssh_certificate_authority data source.
func NewSSHCertificateAuthorityDataSource() datasource.DataSource {
	return newDataSource(kind[networking.SSHCertificateAuthority]{
		typeName: SSHCertificateAuthorityTypeName,
		noun:     "SSH certificate authority",
		description: "Looks up an SSH certificate authority, by `id` or by `name` within a project. An " +
			"instance given one (`ssh_certificate_authority_id`) accepts SSH certificates it signed; it " +
			"must be in the same project as the instance's network.",
		attributes: map[string]schema.Attribute{
			"public_key": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Public key of the authority, as one OpenSSH `authorized_keys` line without a comment.",
			},
		},
		newModel: func() model[networking.SSHCertificateAuthority] { return &sshCertificateAuthorityModel{} },
		find:     networking.Objects.SSHCertificateAuthority,
		metadata: func(authority *networking.SSHCertificateAuthority) *cloud.ProjectMetadata {
			return &authority.Metadata
		},
	})
}

type sshCertificateAuthorityModel struct {
	commonModel

	PublicKey types.String `tfsdk:"public_key"`
}

func (m *sshCertificateAuthorityModel) narrow(*networking.Selector) {}

func (m *sshCertificateAuthorityModel) set(_ context.Context, authority *networking.SSHCertificateAuthority, _ *diag.Diagnostics) {
	m.PublicKey = types.StringValue(authority.PublicKey)
}
