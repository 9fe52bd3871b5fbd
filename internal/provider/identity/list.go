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
)

var (
	_ list.ListResource              = (*listResource[identity.Project])(nil)
	_ list.ListResourceWithConfigure = (*listResource[identity.Project])(nil)
)

// listResource finds the objects of one kind of an organization for `terraform
// query`. Each result is what the resource's Read would make of the object, so
// generated configuration imports cleanly.
type listResource[T any] struct {
	listing.Base

	list func(identity.Objects, context.Context, string) ([]T, error)
	// kept is what identity keeps of an object, and its name.
	kept func(*T) (*identity.Record, string)
	// state is the resource's state for an object, and its timeouts, which a listed
	// result leaves unset.
	state func(context.Context, *T, *diag.Diagnostics) (any, *timeouts.Value)
}

type listConfig struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	Name           types.String `tfsdk:"name"`
}

// NewProjectListResource returns the unikorn_project list resource.
func NewProjectListResource() list.ListResource {
	return &listResource[identity.Project]{
		Base: listing.Base{TypeName: ProjectTypeName, Nouns: "projects", Diagnose: diagnostic.Identity},
		list: identity.Objects.ListProjects,
		kept: func(project *identity.Project) (*identity.Record, string) { return &project.Record, project.Name },
		state: func(ctx context.Context, project *identity.Project, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &projectModel{commonModel: unsetCommon()}
			setProject(ctx, m, project, diags)

			return m, &m.Timeouts
		},
	}
}

// NewGroupListResource returns the unikorn_group list resource.
func NewGroupListResource() list.ListResource {
	return &listResource[identity.Group]{
		Base: listing.Base{TypeName: GroupTypeName, Nouns: "groups", Diagnose: diagnostic.Identity},
		list: identity.Objects.ListGroups,
		kept: func(group *identity.Group) (*identity.Record, string) { return &group.Record, group.Name },
		state: func(ctx context.Context, group *identity.Group, diags *diag.Diagnostics) (any, *timeouts.Value) {
			m := &groupModel{commonModel: unsetCommon(), UserIDs: types.SetNull(types.StringType)}
			setGroup(ctx, m, group, diags)

			return m, &m.Timeouts
		},
	}
}

// NewServiceAccountListResource returns the unikorn_service_account list resource.
// An imported account has no sealed token: its token was answered only to whoever
// created it.
func NewServiceAccountListResource() list.ListResource {
	return &listResource[identity.ServiceAccount]{
		Base: listing.Base{TypeName: ServiceAccountTypeName, Nouns: "service accounts", Diagnose: diagnostic.Identity},
		list: identity.Objects.ListServiceAccounts,
		kept: func(account *identity.ServiceAccount) (*identity.Record, string) {
			return &account.Record, account.Name
		},
		state: func(ctx context.Context, account *identity.ServiceAccount, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// As imported, an account names every group it is in (see setServiceAccount).
			m := &serviceAccountModel{
				commonModel: unsetCommon(), SealedToken: types.StringNull(), RotationTrigger: types.MapNull(types.StringType),
			}
			setServiceAccount(ctx, m, account, diags)

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
		MarkdownDescription: "Finds an organization's " + l.Nouns + " for `terraform query`, to review them or to " +
			"generate configuration that imports them. Each result is named `<name> (<id>)` and carries the " +
			"identity the resource has. Objects that are being deleted are left out.",
		Attributes: map[string]schema.Attribute{
			"organization_id": listing.OrganizationAttribute(),
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only " + l.Nouns + " of this name. Names need not be unique.",
			},
		},
	}
}

func (l *listResource[T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config listConfig

	listing.Stream(ctx, &l.Base, req, stream, &config,
		func(ctx context.Context, organizationID string, _ *diag.Diagnostics) ([]T, error) {
			return l.list(l.Provider.Identity, ctx, organizationID)
		},
		func(object *T) bool {
			record, name := l.kept(object)
			wanted := config.Name.ValueString()

			return record.DeletionTime == nil && (wanted == "" || name == wanted)
		},
		func(object *T) list.ListResult {
			record, name := l.kept(object)
			identity := family.IdentityOf(family.InOrganization, types.StringValue(record.OrganizationID), types.StringValue(record.ID))

			return listing.Result(ctx, req, name, record.ID, identity,
				func(diags *diag.Diagnostics) (any, *timeouts.Value) {
					return l.state(ctx, object, diags)
				})
		})
}

func (c *listConfig) Organization() types.String { return c.OrganizationID }

// NewUserListResource returns the unikorn_user list resource. A user is named by its
// subject, which the list may filter by.
func NewUserListResource() list.ListResource {
	return &userListResource{listing.Base{TypeName: UserTypeName, Nouns: "users", Diagnose: diagnostic.Identity}}
}

type userListResource struct{ listing.Base }

type userListConfig struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	Subject        types.String `tfsdk:"subject"`
}

func (c *userListConfig) Organization() types.String { return c.OrganizationID }

func (l *userListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds an organization's users for `terraform query`, to review them or to generate " +
			"configuration that imports them. Each result is named `<subject> (<id>)` and carries the identity the " +
			"resource has; as imported, a user names every group it is in. Users that are being deleted are left out.",
		Attributes: map[string]schema.Attribute{
			"organization_id": listing.OrganizationAttribute(),
			"subject": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Only the user of this subject (email address).",
			},
		},
	}
}

func (l *userListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config userListConfig

	listing.Stream(ctx, &l.Base, req, stream, &config,
		func(ctx context.Context, organizationID string, _ *diag.Diagnostics) ([]identity.User, error) {
			return l.Provider.Identity.ListUsers(ctx, organizationID)
		},
		func(user *identity.User) bool {
			subject := config.Subject.ValueString()

			return user.DeletionTime == nil && (subject == "" || user.Subject == subject)
		},
		func(user *identity.User) list.ListResult {
			identity := family.IdentityOf(family.InOrganization, types.StringValue(user.OrganizationID), types.StringValue(user.ID))

			return listing.Result(ctx, req, user.Subject, user.ID, identity,
				func(diags *diag.Diagnostics) (any, *timeouts.Value) {
					// As imported, a user names every group it is in (see setUser).
					m := &userModel{Subject: types.StringNull(), GroupIDs: types.SetNull(types.StringType)}
					setUser(ctx, m, user, diags)

					return m, &m.Timeouts
				})
		})
}
