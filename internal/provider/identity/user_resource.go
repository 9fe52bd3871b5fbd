package identity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
)

// UserTypeName is the user resource's, data source's and list resource's Terraform type.
const UserTypeName = "unikorn_user"

var (
	_ resource.ResourceWithConfigure   = (*userResource)(nil)
	_ resource.ResourceWithImportState = (*userResource)(nil)
	_ resource.ResourceWithIdentity    = (*userResource)(nil)
)

// userStates are identity's `userState`.
var userStates = []string{identity.UserActive, identity.UserPending, identity.UserSuspended}

// NewUserResource returns the unikorn_user resource.
func NewUserResource() resource.Resource {
	return &userResource{newResource(UserTypeName, "user", memberTimeout,
		func() *userModel { return &userModel{} },
		identity.Objects.ReadUser, identity.Objects.DeleteUser, setUser,
		func(user *identity.User) *identity.Record { return &user.Record })}
}

// userResource makes a subject a user of the organization. A user has no name,
// description or tags of its own: identity names it by its subject.
type userResource struct {
	family.Resource[identity.User, *userModel]
}

type userModel struct {
	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	Subject        types.String `tfsdk:"subject"`
	State          types.String `tfsdk:"state"`
	GroupIDs       types.Set    `tfsdk:"group_ids"`
	family.Timed
}

// Keys are the user's organization and ID: identity's IDs are unique only within an
// organization.
func (m *userModel) Keys() (types.String, types.String) { return m.OrganizationID, m.ID }

func (r *userResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := commonAttributes("user")
	delete(attributes, "name")
	delete(attributes, "description")
	delete(attributes, "tags")

	attributes["subject"] = schema.StringAttribute{
		Required: true,
		MarkdownDescription: "Who the user is, as the organization's identity provider names them: their email " +
			"address (identity refuses another subject, 400). Changing it replaces the user.",
		Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	attributes["state"] = schema.StringAttribute{
		Optional: true, Computed: true, Default: stringdefault.StaticString(identity.UserActive),
		MarkdownDescription: "The user's state in the organization: `active` (the default), `pending` or " +
			"`suspended`. Changed in place; a change made outside Terraform shows in the next plan.",
		Validators: []validator.String{stringvalidator.OneOf(userStates...)},
	}
	attributes["group_ids"] = schema.SetAttribute{
		Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Groups the user joins; the user has the rights of every group it is in. These are " +
			"the groups this resource manages, and all it shows: identity keeps the membership on the groups, and " +
			"its create and update of a user rewrite every group of the organization (adding the user to those " +
			"named, taking it out of the others), so the provider sends, besides these, the groups the user is in " +
			"already and this resource did not name: an update takes the user out of a group only when the group " +
			"leaves this list, and leaves alone the groups that list the user in their own `user_ids`. So a " +
			"membership is managed from one side: here, or in the group's `user_ids`, which, when set, is that " +
			"group's whole membership (see `unikorn_group`; its plan warns when it would take out a user). Unset, " +
			"the user joins no group itself. An imported user names every group it is in.",
		Validators: []validator.Set{uuids()},
	}
	attributes["timeouts"] = timeoutsAttribute(ctx)

	resp.Schema = schema.Schema{
		MarkdownDescription: "A user of the organization: a person, named by their email address, who signs in " +
			"through the organization's identity provider and has the rights of the groups they are in. Only an " +
			"organization administrator may manage users. Identity has no read of one user, so it is read from " +
			"the organization's list; deleting the user takes them out of the organization and its groups, and " +
			"revokes their tokens.",
		Attributes: attributes,
	}
}

// write is what to send for plan. current, the user as identity has it now, is nil for
// a create; for an update, the groups it is in that the state does not name (joined
// from the groups' side) are kept, since identity takes the user out of every group
// the write does not name.
func (r *userResource) write(ctx context.Context, plan, state *userModel, current *identity.User, diags *diag.Diagnostics) identity.UserWrite {
	groups := stringsOf(ctx, plan.GroupIDs, diags)
	if current != nil {
		groups = identity.Joined(current.GroupIDs, stringsOf(ctx, state.GroupIDs, diags), groups)
	}

	return identity.UserWrite{Subject: plan.Subject.ValueString(), State: plan.State.ValueString(), GroupIDs: groups}
}

// setUser fills the model from identity's record. A model that has no subject yet is
// not filled yet (see groupsShown).
func setUser(ctx context.Context, m *userModel, user *identity.User, diags *diag.Diagnostics) {
	m.GroupIDs = groupsShown(ctx, m.GroupIDs, user.GroupIDs, m.Subject.IsNull(), diags)
	m.ID = types.StringValue(user.ID)
	m.OrganizationID = types.StringValue(user.OrganizationID)
	m.Subject = types.StringValue(user.Subject)
	m.State = types.StringValue(user.State)
}

func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan userModel

	create(ctx, &r.Resource, req, resp, &plan, func(ctx context.Context, diags *diag.Diagnostics) identity.UserWrite {
		return r.write(ctx, &plan, nil, nil, diags)
	}, identity.Objects.CreateUser)
}

// Update changes the user's state and the groups it names; the groups that list it
// from their side are read now and kept.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state userModel

	update(ctx, &r.Resource, req, resp, &plan, func(ctx context.Context, organizationID, id string, diags *diag.Diagnostics) (*identity.User, error) {
		if diags.Append(req.State.Get(ctx, &state)...); diags.HasError() {
			return nil, nil
		}

		current := currently(ctx, &r.Base, r.Provider.Identity.ReadUser, organizationID, id, diags)
		if current == nil {
			return nil, nil
		}

		write := r.write(ctx, &plan, &state, current, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Identity.UpdateUser(ctx, organizationID, id, write)
	})
}
