package identity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
)

// RoleTypeName is the data source of one role, by name.
const RoleTypeName = "unikorn_role"

var (
	_ datasource.DataSourceWithConfigure = (*roleDataSource)(nil)
	_ resource.ResourceWithModifyPlan    = (*groupResource)(nil)
)

// NewRoleDataSource returns the unikorn_role data source.
func NewRoleDataSource() datasource.DataSource {
	return &roleDataSource{rolesReader{family.DataSource{Name: RoleTypeName, Looks: "read the roles"}}}
}

// roleDataSource finds one role by name: a name that no role has is an error that
// lists the roles there are, where an index into unikorn_roles' map could only say
// "Invalid index".
type roleDataSource struct{ rolesReader }

type roleLookupModel struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	Name           types.String `tfsdk:"name"`
	ID             types.String `tfsdk:"id"`
	Description    types.String `tfsdk:"description"`
}

func (d *roleDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "One role a group may hold in the organization, by name: `data.unikorn_role.user.id` for " +
			"a group's `role_ids`. A name that no role has is an error that lists the roles there are. Identity's " +
			"chart installs `administrator`, `auditor`, `user` and `reader`. Reading roles needs `identity:roles` " +
			"`read`, which an administrator holds and a project user does not.",
		Attributes: map[string]schema.Attribute{
			"organization_id": organizationAttribute(),
			"name":            schema.StringAttribute{Required: true, MarkdownDescription: "Name of the role, e.g. `user`."},
			"id":              roleIDAttribute,
			"description":     roleDescriptionAttribute,
		},
	}
}

func (d *roleDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m roleLookupModel

	organizationID, roles, ok := d.readRoles(ctx, req.Config, &m, func() types.String { return m.OrganizationID }, &resp.Diagnostics)
	if !ok {
		return
	}

	name := m.Name.ValueString()
	at := slices.IndexFunc(roles, func(role identity.Role) bool { return role.Name == name })

	if at < 0 {
		names := make([]string, len(roles))
		for i, role := range roles {
			names[i] = role.Name
		}

		resp.Diagnostics.Append(diagnostic.Lookup("role", nil, &cloud.LookupError{
			Kind: "role", Selector: cloud.Selector{Name: name, OrganizationID: organizationID}, Names: names,
		}))

		return
	}

	role := roles[at]
	m.OrganizationID = types.StringValue(organizationID)
	m.ID = types.StringValue(role.ID)
	m.Description = types.StringValue(role.Description)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// checkRoles checks, when role_ids is known, that each names a role of the
// organization, which identity otherwise refuses only when Terraform applies. A
// check that cannot read the roles (a token without `identity:roles` `read`) leaves
// it to identity.
func (r *groupResource) checkRoles(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Provider.Online() {
		return
	}

	var plan groupModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}

	// The organization the configuration names, else the one the plan keeps (an
	// update's), else the provider's; one not known yet leaves the check to apply.
	var configured types.String
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, family.PathOrganizationID, &configured)...); resp.Diagnostics.HasError() {
		return
	}

	organizationID := configured.ValueString()
	if organizationID == "" && !plan.OrganizationID.IsUnknown() {
		organizationID = plan.OrganizationID.ValueString()
	}

	if organizationID == "" {
		organizationID = r.Provider.OrganizationID
	}

	if configured.IsUnknown() || organizationID == "" || plan.RoleIDs.IsUnknown() || plan.RoleIDs.IsNull() {
		return
	}

	var ids []types.String
	if resp.Diagnostics.Append(plan.RoleIDs.ElementsAs(ctx, &ids, false)...); resp.Diagnostics.HasError() {
		return
	}

	var roles []identity.Role

	for _, id := range ids {
		if id.IsUnknown() || id.IsNull() {
			continue
		}

		if roles == nil {
			var err error
			if roles, err = r.Provider.Identity.Roles(ctx, organizationID); err != nil || len(roles) == 0 {
				return
			}
		}

		if slices.ContainsFunc(roles, func(role identity.Role) bool { return role.ID == id.ValueString() }) {
			continue
		}

		known := make([]string, len(roles))
		for i, role := range roles {
			known[i] = fmt.Sprintf("%s (%s)", role.Name, role.ID)
		}

		resp.Diagnostics.Append(diagnostic.AttributeError(path.Root("role_ids"), "Role not found",
			fmt.Sprintf("Role ID %s names no role of organization %s. The roles there are: %s.",
				id.ValueString(), organizationID, strings.Join(known, ", ")),
			"Give role_ids the IDs of roles, found by name with the `unikorn_role` data source (`data.unikorn_role.<name>.id`)."))
	}
}
