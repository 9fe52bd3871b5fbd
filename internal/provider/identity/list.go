package identity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

type listConfig struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	Name           types.String `tfsdk:"name"`
}

// listOf is the list resource of one kind of an organization's objects, which may be
// filtered by name: find lists them, kept is what identity keeps of one and its name,
// and state is the resource's state for one (see listing.Resource).
func listOf[T any](typeName, nouns string,
	find func(identity.Objects, context.Context, string) ([]T, error),
	kept func(*T) (*identity.Record, string),
	state func(context.Context, *T, *diag.Diagnostics) (any, *timeouts.Value),
) list.ListResource {
	return &listing.Resource[T, listConfig]{
		Base:        listing.Base{TypeName: typeName, Nouns: nouns, Diagnose: diagnostic.Identity},
		Description: listing.Describe("an organization's " + nouns),
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only " + nouns + " of this name. Names need not be unique.",
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, _ *listConfig, organizationID string, _ *diag.Diagnostics) ([]T, error) {
			return find(provider.Identity, ctx, organizationID)
		},
		Wanted: func(config *listConfig, object *T) bool {
			_, name := kept(object)

			return config.Name.ValueString() == "" || name == config.Name.ValueString()
		},
		Show: func(object *T) listing.Shown {
			record, name := kept(object)

			return shown(record, name)
		},
		State: state,
	}
}

// shown is how a list shows an object that identity keeps in an organization.
func shown(record *identity.Record, name string) listing.Shown {
	return listing.InOrganization(name, record.OrganizationID, record.ID, record.DeletionTime != nil)
}

// NewProjectListResource returns the unikorn_project list resource.
func NewProjectListResource() list.ListResource {
	return listOf(ProjectTypeName, "projects", identity.Objects.ListProjects,
		func(project *identity.Project) (*identity.Record, string) { return &project.Record, project.Name },
		func(ctx context.Context, project *identity.Project, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &projectModel{commonModel: unsetCommon()}
			setProject(ctx, m, project, diags)

			return m, &m.Timeouts
		})
}

// NewGroupListResource returns the unikorn_group list resource.
func NewGroupListResource() list.ListResource {
	return listOf(GroupTypeName, "groups", identity.Objects.ListGroups,
		func(group *identity.Group) (*identity.Record, string) { return &group.Record, group.Name },
		func(ctx context.Context, group *identity.Group, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &groupModel{commonModel: unsetCommon(), UserIDs: types.SetNull(types.StringType)}
			setGroup(ctx, m, group, diags)

			return m, &m.Timeouts
		})
}

// NewServiceAccountListResource returns the unikorn_service_account list resource.
// An imported account has no sealed token: its token was answered only to whoever
// created it.
func NewServiceAccountListResource() list.ListResource {
	return listOf(ServiceAccountTypeName, "service accounts", identity.Objects.ListServiceAccounts,
		func(account *identity.ServiceAccount) (*identity.Record, string) {
			return &account.Record, account.Name
		},
		func(ctx context.Context, account *identity.ServiceAccount, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// As imported, an account names every group it is in (see setServiceAccount).
			m := &serviceAccountModel{
				commonModel: unsetCommon(), SealedToken: types.StringNull(), RotationTrigger: types.MapNull(types.StringType),
			}
			setServiceAccount(ctx, m, account, diags)

			return m, &m.Timeouts
		})
}

// unsetCommon is the common attributes as a configuration that sets none of the
// optional ones has them.
func unsetCommon() commonModel {
	return commonModel{Metadata: family.UnsetMetadata()}
}

type userListConfig struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	Subject        types.String `tfsdk:"subject"`
}

// NewUserListResource returns the unikorn_user list resource. A user is named by its
// subject, which the list may filter by.
func NewUserListResource() list.ListResource {
	return &listing.Resource[identity.User, userListConfig]{
		Base: listing.Base{TypeName: UserTypeName, Nouns: "users", Diagnose: diagnostic.Identity},
		Description: "Finds an organization's users for `terraform query`, to review them or to generate " +
			"configuration that imports them. Each result is named `<subject> (<id>)` and carries the identity the " +
			"resource has; as imported, a user names every group it is in. Users that are being deleted are left out.",
		Attributes: map[string]schema.Attribute{
			"subject": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Only the user of this subject (email address).",
			},
		},
		Find: func(ctx context.Context, provider *providerdata.Data, _ *userListConfig, organizationID string, _ *diag.Diagnostics) ([]identity.User, error) {
			return provider.Identity.ListUsers(ctx, organizationID)
		},
		Wanted: func(config *userListConfig, user *identity.User) bool {
			return config.Subject.ValueString() == "" || user.Subject == config.Subject.ValueString()
		},
		Show: func(user *identity.User) listing.Shown { return shown(&user.Record, user.Subject) },
		State: func(ctx context.Context, user *identity.User, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// As imported, a user names every group it is in (see setUser).
			m := &userModel{Subject: types.StringNull(), GroupIDs: types.SetNull(types.StringType)}
			setUser(ctx, m, user, diags)

			return m, &m.Timeouts
		},
	}
}
