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
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ list.ListResource              = (*listResource[networking.Network])(nil)
	_ list.ListResourceWithConfigure = (*listResource[networking.Network])(nil)
)

// listResource finds the objects of one kind for `terraform query`. Each result is
// what the resource's Read would make of the object, so generated configuration
// imports cleanly.
type listResource[T any] struct {
	listing.Base

	list     func(networking.Objects, context.Context, string, string) ([]T, error)
	metadata func(*T) *cloud.ProjectMetadata
	// state is the resource's state for an object, and its timeouts, which a listed
	// result leaves unset.
	state func(context.Context, *T, *diag.Diagnostics) (any, *timeouts.Value)
}

type listConfig struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
}

// NewNetworkListResource returns the unikorn_network list resource.
func NewNetworkListResource() list.ListResource {
	return &listResource[networking.Network]{
		Base:     listing.Base{TypeName: NetworkTypeName, Nouns: "networks", Diagnose: diagnostic.Networking},
		list:     networking.Objects.ListNetworks,
		metadata: func(network *networking.Network) *cloud.ProjectMetadata { return &network.Metadata },
		state: func(ctx context.Context, network *networking.Network, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &networkResourceModel{commonModel: unsetCommon()}
			setNetwork(ctx, m, network, diags)

			return m, &m.Timeouts
		},
	}
}

// NewSecurityGroupListResource returns the unikorn_security_group list resource.
func NewSecurityGroupListResource() list.ListResource {
	return &listResource[networking.SecurityGroup]{
		Base:     listing.Base{TypeName: SecurityGroupTypeName, Nouns: "security groups", Diagnose: diagnostic.Networking},
		list:     networking.Objects.ListSecurityGroups,
		metadata: func(group *networking.SecurityGroup) *cloud.ProjectMetadata { return &group.Metadata },
		state: func(ctx context.Context, group *networking.SecurityGroup, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &securityGroupResourceModel{commonModel: unsetCommon()}
			setSecurityGroup(ctx, m, group, diags)

			return m, &m.Timeouts
		},
	}
}

// NewSSHCertificateAuthorityListResource returns the unikorn_ssh_certificate_authority
// list resource.
func NewSSHCertificateAuthorityListResource() list.ListResource {
	return &listResource[networking.SSHCertificateAuthority]{
		Base: listing.Base{TypeName: SSHCertificateAuthorityTypeName, Nouns: "SSH certificate authorities", Diagnose: diagnostic.Networking},
		list: networking.Objects.ListSSHCertificateAuthorities,
		metadata: func(authority *networking.SSHCertificateAuthority) *cloud.ProjectMetadata {
			return &authority.Metadata
		},
		state: func(ctx context.Context, authority *networking.SSHCertificateAuthority, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &sshCertificateAuthorityResourceModel{sshCertificateAuthorityModel: sshCertificateAuthorityModel{commonModel: unsetCommon()}}
			setAuthority(ctx, m, authority, diags)

			return m, &m.Timeouts
		},
	}
}

// unsetCommon is the common attributes as a configuration that sets none of the
// optional ones has them.
func unsetCommon() commonModel {
	return commonModel{Metadata: family.UnsetMetadata()}
}

func (l *listResource[T]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds " + l.Nouns + " for `terraform query`, to review them or to generate " +
			"configuration that imports them. Each result is named `<name> (<id>)` and carries the identity " +
			"the resource has. Objects that are being deleted are left out.",
		Attributes: map[string]schema.Attribute{
			"organization_id": listing.OrganizationAttribute(),
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only " + l.Nouns + " of this project; without it, every project of the " +
					"organization the token can see is searched.",
				Validators: []validator.String{validators.UUID()},
			},
		},
	}
}

func (l *listResource[T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config listConfig

	listing.Stream(ctx, &l.Base, req, stream, &config,
		func(ctx context.Context, organizationID string, _ *diag.Diagnostics) ([]T, error) {
			return l.list(l.Provider.Networking, ctx, organizationID, config.ProjectID.ValueString())
		},
		func(object *T) bool { return l.metadata(object).DeletionTime == nil },
		func(object *T) list.ListResult {
			metadata := l.metadata(object)
			identity := family.IdentityOf(family.Global, types.StringNull(), types.StringValue(metadata.ID))

			return listing.Result(ctx, req, metadata.Name, metadata.ID, identity,
				func(diags *diag.Diagnostics) (any, *timeouts.Value) {
					return l.state(ctx, object, diags)
				})
		})
}

func (c *listConfig) Organization() types.String { return c.OrganizationID }
