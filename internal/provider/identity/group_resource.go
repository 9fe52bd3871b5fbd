package identity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
)

// GroupTypeName is the group resource's and data source's Terraform type.
const GroupTypeName = "unikorn_group"

var (
	_ resource.ResourceWithConfigure   = (*groupResource)(nil)
	_ resource.ResourceWithImportState = (*groupResource)(nil)
	_ resource.ResourceWithIdentity    = (*groupResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*groupResource)(nil)
)

// NewGroupResource returns the unikorn_group resource.
func NewGroupResource() resource.Resource {
	return &groupResource{newResource(GroupTypeName, "group", memberTimeout,
		func() *groupModel { return &groupModel{} },
		identity.Objects.ReadGroup, identity.Objects.DeleteGroup, setGroup,
		func(group *identity.Group) *identity.Record { return &group.Record })}
}

type groupResource struct {
	family.Resource[identity.Group, *groupModel]
}

type groupModel struct {
	commonModel
	RoleIDs           types.Set `tfsdk:"role_ids"`
	UserIDs           types.Set `tfsdk:"user_ids"`
	ServiceAccountIDs types.Set `tfsdk:"service_account_ids"`
	family.Timed
}

func (r *groupResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := commonAttributes("group")
	attributes["role_ids"] = schema.SetAttribute{
		Required: true, ElementType: types.StringType,
		MarkdownDescription: "Roles the group's members hold (find one by name with the `unikorn_role` data " +
			"source): their organization scope everywhere in the organization, their project scope in the projects " +
			"that name the group. An ID that names no role of the organization is refused at plan, listing the " +
			"roles there are (when the token may read them); identity refuses one that grants more than the token " +
			"itself holds (403).",
		Validators: []validator.Set{uuids()},
	}
	attributes["user_ids"] = schema.SetAttribute{
		Optional: true, Computed: true, ElementType: types.StringType,
		MarkdownDescription: "Organization users in the group, by ID. Identity refuses a user who is not a member " +
			"of the organization (400). Set, it is the group's whole membership: an update takes out every user it " +
			"does not list, including one whose `unikorn_user` names this group in `group_ids` (the plan warns when " +
			"it would). Unset, the users join the group from their side (`group_ids`), and this shows who is in it. " +
			"A membership is managed from one side: list the users here, or name the group in their `group_ids`, " +
			"not both.",
		Validators: []validator.Set{uuids(), setvalidator.SizeAtLeast(1)},
	}
	attributes["service_account_ids"] = schema.SetAttribute{
		Optional: true, Computed: true, ElementType: types.StringType,
		MarkdownDescription: "Service accounts in the group. Set, it is the group's whole membership: an update " +
			"takes out every account it does not list, including one whose `unikorn_service_account` names this " +
			"group in `group_ids` (the plan warns when it would). Unset, the accounts join the group from their " +
			"side (`group_ids`), and this shows who is in it. A membership is managed from one side: list the " +
			"accounts here, or name the group in their `group_ids`, not both.",
		Validators: []validator.Set{uuids()},
	}
	attributes["timeouts"] = timeoutsAttribute(ctx)

	resp.Schema = schema.Schema{
		MarkdownDescription: "A group: binds users and service accounts to roles. Groups are synchronous; every " +
			"attribute but `organization_id` changes in place.",
		Attributes: attributes,
	}
}

// ModifyPlan checks the roles a group binds and warns of memberships it would undo.
// Identity deletes a group at once, so there is no deletion to plan for.
func (r *groupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.checkRoles(ctx, req, resp)
	r.warnLeaving(ctx, req, resp)
}

// members are a group's two memberships, each seen from two sides: the group's list,
// and the group_ids of the resource of each member.
var members = []struct {
	attribute, nouns, title, resource string
	ids                               func(*groupModel) types.Set
}{
	{"user_ids", "users", "Users", "unikorn_user", func(m *groupModel) types.Set { return m.UserIDs }},
	{"service_account_ids", "service accounts", "Service accounts", "unikorn_service_account", func(m *groupModel) types.Set { return m.ServiceAccountIDs }},
}

// warnLeaving warns when a set user_ids or service_account_ids would take out members
// that are in the group: they joined from their side or outside Terraform, and if a
// unikorn_user or unikorn_service_account names the group, the two resources undo each
// other.
func (r *groupResource) warnLeaving(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}

	var plan, state groupModel

	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)

	if resp.Diagnostics.HasError() {
		return
	}

	for _, member := range members {
		// A member not known until apply may be one that would otherwise leave: the plan
		// made again at apply judges it.
		wanted, unknown := planning.KnownStrings(member.ids(&plan))
		if unknown || member.ids(&plan).IsNull() {
			continue
		}

		var leaving []string

		for _, id := range stringsOf(ctx, member.ids(&state), &resp.Diagnostics) {
			if !slices.Contains(wanted, id) {
				leaving = append(leaving, id)
			}
		}

		if len(leaving) == 0 {
			continue
		}

		resp.Diagnostics.AddAttributeWarning(path.Root(member.attribute), member.title+" will leave the group",
			fmt.Sprintf("Group %q has %s that its %s does not list: %s. Set, %s is the group's whole membership, "+
				"so this apply takes them out. If a %s names this group in its group_ids, the two resources undo "+
				"each other on every apply. A membership is managed from one side: list the %s here, or leave %s "+
				"unset and let the %s name the group.", state.Name.ValueString(), member.nouns, member.attribute,
				strings.Join(leaving, ", "), member.attribute, member.resource, member.nouns, member.attribute, member.nouns))
	}
}

func (r *groupResource) write(ctx context.Context, plan *groupModel, current *identity.Group, diags *diag.Diagnostics) identity.GroupWrite {
	write := identity.GroupWrite{
		WriteMetadata:     plan.Write(ctx, diags),
		RoleIDs:           stringsOf(ctx, plan.RoleIDs, diags),
		UserIDs:           stringsOf(ctx, plan.UserIDs, diags),
		ServiceAccountIDs: stringsOf(ctx, plan.ServiceAccountIDs, diags),
	}

	// Unset, a membership is the members' to manage: keep what they chose. Identity
	// takes out of a group every user and service account its update does not name.
	if plan.ServiceAccountIDs.IsUnknown() && current != nil {
		write.ServiceAccountIDs = append([]string{}, current.ServiceAccountIDs...)
	}

	if plan.UserIDs.IsUnknown() && current != nil {
		write.UserIDs = append([]string{}, current.UserIDs...)
	}

	return write
}

// setGroup fills the model from identity's record; user_ids that is unset stays null
// while the group has no users, as user_ids may not be empty.
func setGroup(ctx context.Context, m *groupModel, group *identity.Group, diags *diag.Diagnostics) {
	m.setKept(ctx, &group.Record, group.WriteMetadata, diags)
	m.RoleIDs = setOf(ctx, group.RoleIDs, diags)
	m.ServiceAccountIDs = setOf(ctx, group.ServiceAccountIDs, diags)

	switch {
	case len(group.UserIDs) > 0 || (!m.UserIDs.IsNull() && !m.UserIDs.IsUnknown()):
		m.UserIDs = setOf(ctx, group.UserIDs, diags)
	default:
		m.UserIDs = types.SetNull(types.StringType)
	}
}

func (r *groupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan groupModel

	create(ctx, &r.Resource, req, resp, &plan, func(ctx context.Context, diags *diag.Diagnostics) identity.GroupWrite {
		return r.write(ctx, &plan, nil, diags)
	}, identity.Objects.CreateGroup)
}

// Update keeps the memberships the plan leaves to the members: it reads the group first.
func (r *groupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan groupModel

	update(ctx, &r.Resource, req, resp, &plan, func(ctx context.Context, organizationID, id string, diags *diag.Diagnostics) (*identity.Group, error) {
		current, err := r.Provider.Identity.ReadGroup(ctx, organizationID, id)
		if err != nil {
			diags.Append(r.Failed("read", err)...)

			return nil, nil
		}

		write := r.write(ctx, &plan, current, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Identity.UpdateGroup(ctx, organizationID, id, write)
	})
}
