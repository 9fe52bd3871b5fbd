package networking

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

type listConfig struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
}

// listOf is the list resource of one kind of networking object, which may be
// filtered by project: find lists them, metadata is what the cloud keeps of one, and
// state is the resource's state for one (see listing.Resource).
func listOf[T any](typeName, nouns string,
	find func(networking.Objects, context.Context, string, string) ([]T, error),
	metadata func(*T) *cloud.ProjectMetadata,
	state func(context.Context, *T, *diag.Diagnostics) (any, *timeouts.Value),
) list.ListResource {
	return &listing.Resource[T, listConfig]{
		Base:        listing.Base{TypeName: typeName, Nouns: nouns, Diagnose: diagnostic.Networking},
		Description: listing.Describe(nouns),
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only " + nouns + " of this project; without it, every project of the " +
					"organization the token can see is searched.",
				Validators: []validator.String{validators.UUID()},
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, config *listConfig, organizationID string, _ *diag.Diagnostics) ([]T, error) {
			return find(provider.Networking, ctx, organizationID, config.ProjectID.ValueString())
		},
		Show:  func(object *T) listing.Shown { return listing.Project(metadata(object)) },
		State: state,
	}
}

// NewNetworkListResource returns the unikorn_network list resource.
func NewNetworkListResource() list.ListResource {
	return listOf(NetworkTypeName, "networks", networking.Objects.ListNetworks,
		func(network *networking.Network) *cloud.ProjectMetadata { return &network.Metadata },
		func(ctx context.Context, network *networking.Network, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &networkResourceModel{commonModel: unsetCommon()}
			setNetwork(ctx, m, network, diags)

			return m, &m.Timeouts
		})
}

// NewSecurityGroupListResource returns the unikorn_security_group list resource.
func NewSecurityGroupListResource() list.ListResource {
	return listOf(SecurityGroupTypeName, "security groups", networking.Objects.ListSecurityGroups,
		func(group *networking.SecurityGroup) *cloud.ProjectMetadata { return &group.Metadata },
		func(ctx context.Context, group *networking.SecurityGroup, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &securityGroupResourceModel{commonModel: unsetCommon()}
			setSecurityGroup(ctx, m, group, diags)

			return m, &m.Timeouts
		})
}

// NewSSHCertificateAuthorityListResource returns the unikorn_ssh_certificate_authority
// list resource.
func NewSSHCertificateAuthorityListResource() list.ListResource {
	return listOf(SSHCertificateAuthorityTypeName, "SSH certificate authorities", networking.Objects.ListSSHCertificateAuthorities,
		func(authority *networking.SSHCertificateAuthority) *cloud.ProjectMetadata { return &authority.Metadata },
		func(ctx context.Context, authority *networking.SSHCertificateAuthority, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &sshCertificateAuthorityResourceModel{sshCertificateAuthorityModel: sshCertificateAuthorityModel{commonModel: unsetCommon()}}
			setAuthority(ctx, m, authority, diags)

			return m, &m.Timeouts
		})
}

// unsetCommon is the common attributes as a configuration that sets none of the
// optional ones has them.
func unsetCommon() commonModel {
	return commonModel{Metadata: family.UnsetMetadata()}
}
