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

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/deadline"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
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
	return &groupResource{managed{noun: "group", typeName: GroupTypeName}}
}

type groupResource struct {
	managed
}

type groupModel struct {
	commonModel
	RoleIDs           types.Set `tfsdk:"role_ids"`
	UserIDs           types.Set `tfsdk:"user_ids"`
	ServiceAccountIDs types.Set `tfsdk:"service_account_ids"`
	timed
}

func (r *groupResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = GroupTypeName
}

func (r *groupResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
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
		Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Organization users in the group, by ID. Identity refuses a user who is not a member " +
			"of the organization (400).",
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
func (r *groupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.checkRoles(ctx, req, resp)
	r.warnLeaving(ctx, req, resp)
}

// warnLeaving warns when a set service_account_ids would take out accounts that are
// in the group: they joined from their side or outside Terraform, and if a
// unikorn_service_account names the group, the two resources undo each other.
func (r *groupResource) warnLeaving(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}

	var plan, state groupModel

	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)

	// An account not known until apply may be one that would otherwise leave: the plan
	// made again at apply judges it.
	wanted, unknown := planning.KnownStrings(plan.ServiceAccountIDs)
	if resp.Diagnostics.HasError() || unknown || plan.ServiceAccountIDs.IsNull() {
		return
	}

	var leaving []string

	for _, id := range stringsOf(ctx, state.ServiceAccountIDs, &resp.Diagnostics) {
		if !slices.Contains(wanted, id) {
			leaving = append(leaving, id)
		}
	}

	if len(leaving) == 0 {
		return
	}

	resp.Diagnostics.AddAttributeWarning(path.Root("service_account_ids"), "Service accounts will leave the group",
		fmt.Sprintf("Group %q has service accounts that its service_account_ids does not list: %s. Set, "+
			"service_account_ids is the group's whole membership, so this apply takes them out. If a "+
			"unikorn_service_account names this group in its group_ids, the two resources undo each other on every "+
			"apply. A membership is managed from one side: list the accounts here, or leave service_account_ids "+
			"unset and let the accounts name the group.", state.Name.ValueString(), strings.Join(leaving, ", ")))
}

func (r *groupResource) write(ctx context.Context, plan *groupModel, current *identity.Group, diags *diag.Diagnostics) identity.GroupWrite {
	write := identity.GroupWrite{
		Metadata: plan.writeMetadata(ctx, diags),
		Spec: identity.GroupSpec{
			RoleIDs:           stringsOf(ctx, plan.RoleIDs, diags),
			UserIDs:           stringsOf(ctx, plan.UserIDs, diags),
			ServiceAccountIDs: stringsOf(ctx, plan.ServiceAccountIDs, diags),
		},
	}

	// Unset, the membership is the service accounts' to manage: keep what they chose.
	if plan.ServiceAccountIDs.IsUnknown() && current != nil {
		write.Spec.ServiceAccountIDs = append([]string{}, current.Spec.ServiceAccountIDs...)
	}

	return write
}

func (r *groupResource) set(ctx context.Context, m *groupModel, group *identity.Group, diags *diag.Diagnostics) {
	md := group.Metadata
	m.setCommon(ctx, md.ID, md.OrganizationID, md.Name, md.Description, md.Tags, diags)
	m.RoleIDs = setOf(ctx, group.Spec.RoleIDs, diags)
	m.ServiceAccountIDs = setOf(ctx, group.Spec.ServiceAccountIDs, diags)

	if len(group.Spec.UserIDs) > 0 || !m.UserIDs.IsNull() {
		m.UserIDs = setOf(ctx, group.Spec.UserIDs, diags)
	}
}

func (r *groupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan groupModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !r.reachable("create", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Create, memberTimeout, &resp.Diagnostics)
	defer cancel()

	organizationID := r.organization(plan.OrganizationID, &resp.Diagnostics)
	write := r.write(ctx, &plan, nil, &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	group, err := r.provider.Identity.CreateGroup(ctx, organizationID, write)
	if err != nil {
		resp.Diagnostics.Append(failed("create", "group", err)...)

		return
	}

	r.set(ctx, &plan, group, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	saveIdentity(ctx, resp.Identity, &plan.commonModel, &resp.Diagnostics)
	private.KeepCreationTime(ctx, resp.Private, group.Metadata.CreationTime, &resp.Diagnostics)
	private.KeepDeleting(ctx, resp.Private, cloud.Deleting(&group.Metadata.ReadMetadata), &resp.Diagnostics)
}

func (r *groupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state groupModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || !r.refreshable(state.ID, &resp.Diagnostics) {
		return
	}

	organizationID := r.organization(state.OrganizationID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	group, err := r.provider.Identity.ReadGroup(ctx, organizationID, state.ID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(failed("read", "group", err)...)

		return
	}

	if group == nil {
		resp.State.RemoveResource(ctx)

		return
	}

	r.set(ctx, &state, group, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	saveIdentity(ctx, resp.Identity, &state.commonModel, &resp.Diagnostics)
	private.KeepCreationTime(ctx, resp.Private, group.Metadata.CreationTime, &resp.Diagnostics)
	private.KeepDeleting(ctx, resp.Private, cloud.Deleting(&group.Metadata.ReadMetadata), &resp.Diagnostics)
}

func (r *groupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan groupModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !r.reachable("update", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Update, memberTimeout, &resp.Diagnostics)
	defer cancel()

	organizationID, id := plan.OrganizationID.ValueString(), plan.ID.ValueString()

	current, err := r.provider.Identity.ReadGroup(ctx, organizationID, id)
	if err != nil {
		resp.Diagnostics.Append(failed("read", "group", err)...)

		return
	}

	write := r.write(ctx, &plan, current, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	group, err := r.provider.Identity.UpdateGroup(ctx, organizationID, id, write)
	if err != nil {
		resp.Diagnostics.Append(failed("update", "group", err)...)

		return
	}

	r.set(ctx, &plan, group, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	saveIdentity(ctx, resp.Identity, &plan.commonModel, &resp.Diagnostics)
}

func (r *groupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state groupModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || !r.reachable("delete", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, state.Timeouts.Delete, memberTimeout, &resp.Diagnostics)
	defer cancel()

	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	if err := r.provider.Identity.DeleteGroup(ctx, state.OrganizationID.ValueString(), state.ID.ValueString(), created); err != nil {
		resp.Diagnostics.Append(failed("delete", "group", err)...)
	}
}
