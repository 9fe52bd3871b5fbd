package identity

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// Data source type names besides the resources'.
const (
	RolesTypeName  = "unikorn_roles"
	QuotasTypeName = "unikorn_quotas"
)

var (
	_ datasource.DataSourceWithConfigure        = (*rolesDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*quotasDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*objectDataSource[identity.Project, projectLookup])(nil)
	_ datasource.DataSourceWithConfigValidators = (*objectDataSource[identity.Group, groupLookup])(nil)
)

func organizationAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true, Computed: true,
		MarkdownDescription: "Organization to look in; defaults to the provider's `organization_id`.",
		Validators:          []validator.String{validators.UUID()},
	}
}

// begin is what every data source's Read starts with: the configuration into m, and,
// once Unikorn is reachable, the organization that organizationID (read from m) names
// or the provider's. It reports false with diagnostics when the read cannot go on.
func begin(ctx context.Context, d *family.DataSource, config tfsdk.Config, m any, organizationID func() types.String,
	diags *diag.Diagnostics,
) (string, bool) {
	if !d.Begin(ctx, config, m, diags) {
		return "", false
	}

	organization := d.Organization(organizationID(), diags)

	return organization, !diags.HasError()
}

// rolesReader is what the roles' data sources share: they read the organization's roles.
type rolesReader struct{ family.DataSource }

// readRoles is what the roles' data sources read: the configuration into m, then the
// roles of the organization that organizationID (read from m) names or the
// provider's. It reports false with diagnostics when the read cannot go on.
func (d *rolesReader) readRoles(ctx context.Context, config tfsdk.Config, m any, organizationID func() types.String,
	diags *diag.Diagnostics,
) (string, []identity.Role, bool) {
	organization, ok := begin(ctx, &d.DataSource, config, m, organizationID, diags)
	if !ok {
		return "", nil, false
	}

	roles, err := d.Provider.Identity.Roles(ctx, organization)
	if err != nil {
		diags.Append(diagnostic.Identity("Unable to read the roles", err)...)

		return "", nil, false
	}

	return organization, roles, true
}

// NewRolesDataSource returns the unikorn_roles data source.
func NewRolesDataSource() datasource.DataSource {
	return &rolesDataSource{rolesReader{family.DataSource{Name: RolesTypeName, Looks: "read the roles"}}}
}

type rolesDataSource struct{ rolesReader }

type roleModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

// A role's ID and description, in both roles data sources.
var (
	roleIDAttribute          = schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the role."}
	roleDescriptionAttribute = schema.StringAttribute{Computed: true, MarkdownDescription: "What the role is for."}
)

type rolesModel struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	IDs            types.Map    `tfsdk:"ids"`
	Roles          []roleModel  `tfsdk:"roles"`
}

func (d *rolesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The roles a group may hold in the organization, so that a group names them by name: " +
			"`data.unikorn_roles.all.ids[\"user\"]` (an index that names no role is Terraform's \"Invalid index\"; the " +
			"`unikorn_role` data source finds one by name and lists the roles there are when none has it). Identity's chart installs `administrator` (organization " +
			"administrator: may create projects), `auditor`, `user` (project user) and `reader` (project reader). " +
			"Reading them needs `identity:roles` `read`, which an administrator holds and a project user does not.",
		Attributes: map[string]schema.Attribute{
			"organization_id": organizationAttribute(),
			"ids": schema.MapAttribute{
				Computed: true, ElementType: types.StringType, MarkdownDescription: "Role IDs by role name.",
			},
			"roles": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "The roles, in name order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":          roleIDAttribute,
					"name":        schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the role."},
					"description": roleDescriptionAttribute,
				}},
			},
		},
	}
}

func (d *rolesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m rolesModel

	organizationID, roles, ok := d.readRoles(ctx, req.Config, &m, func() types.String { return m.OrganizationID }, &resp.Diagnostics)
	if !ok {
		return
	}

	ids := map[string]string{}
	m.Roles = []roleModel{}

	for _, role := range roles {
		ids[role.Name] = role.ID
		m.Roles = append(m.Roles, roleModel{
			ID: types.StringValue(role.ID), Name: types.StringValue(role.Name), Description: types.StringValue(role.Description),
		})
	}

	m.OrganizationID = types.StringValue(organizationID)
	value, diags := types.MapValueFrom(ctx, types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	m.IDs = value
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// NewQuotasDataSource returns the unikorn_quotas data source.
func NewQuotasDataSource() datasource.DataSource {
	return &quotasDataSource{family.DataSource{Name: QuotasTypeName, Looks: "read the quotas"}}
}

type quotasDataSource struct{ family.DataSource }

type quotaModel struct {
	Limit types.Int64 `tfsdk:"limit"`
	Used  types.Int64 `tfsdk:"used"`
	Free  types.Int64 `tfsdk:"free"`
}

type quotasModel struct {
	OrganizationID types.String          `tfsdk:"organization_id"`
	Quotas         map[string]quotaModel `tfsdk:"quotas"`
}

func (d *quotasDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's quotas, per kind (`servers`, `gpus`, `networks`, `publicips`, ...): " +
			"the limit, what is used and what is free, so that a module can check for room before it plans a " +
			"large change, for instance in a `precondition`.",
		Attributes: map[string]schema.Attribute{
			"organization_id": organizationAttribute(),
			"quotas": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: "Quotas by kind.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"limit": schema.Int64Attribute{Computed: true, MarkdownDescription: "The most of the kind the organization may use."},
					"used":  schema.Int64Attribute{Computed: true, MarkdownDescription: "What is used, committed and reserved."},
					"free":  schema.Int64Attribute{Computed: true, MarkdownDescription: "What is left: `limit - used`."},
				}},
			},
		},
	}
}

func (d *quotasDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m quotasModel

	organizationID, ok := begin(ctx, &d.DataSource, req.Config, &m, func() types.String { return m.OrganizationID }, &resp.Diagnostics)
	if !ok {
		return
	}

	quotas, err := d.Provider.Identity.Quotas(ctx, organizationID)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Identity("Unable to read the quotas", err)...)

		return
	}

	m.OrganizationID = types.StringValue(organizationID)
	m.Quotas = map[string]quotaModel{}

	for _, quota := range quotas {
		m.Quotas[quota.Kind] = quotaModel{
			Limit: types.Int64Value(int64(quota.Limit)), Used: types.Int64Value(int64(quota.Used)), Free: types.Int64Value(int64(quota.Free)),
		}
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// objectDataSource looks up a project or a group (T) by ID or by name, into the
// model M, which embeds lookupModel.
type objectDataSource[T, M any] struct {
	family.DataSource
	noun, description string
	extra             map[string]schema.Attribute
	find              func(identity.Objects, context.Context, identity.Selector) (*T, error)
	common            func(*M) *lookupModel
	set               func(context.Context, *M, *T, *diag.Diagnostics)
}

type lookupModel struct {
	family.Metadata

	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
}

type projectLookup struct {
	lookupModel
	GroupIDs types.Set    `tfsdk:"group_ids"`
	Status   types.String `tfsdk:"provisioning_status"`
}

type groupLookup struct {
	lookupModel
	RoleIDs           types.Set `tfsdk:"role_ids"`
	UserIDs           types.Set `tfsdk:"user_ids"`
	ServiceAccountIDs types.Set `tfsdk:"service_account_ids"`
}

// NewProjectDataSource returns the unikorn_project data source.
func NewProjectDataSource() datasource.DataSource {
	return &objectDataSource[identity.Project, projectLookup]{
		DataSource: family.DataSource{Name: ProjectTypeName, Looks: "look the project up"}, noun: "project",
		description: "Looks up a project, by `id` or by `name` in the organization. Another configuration's " +
			"resources can take its `id` as their `project_id`.",
		extra: map[string]schema.Attribute{
			"group_ids":           schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Groups whose project-scoped roles apply in the project."},
			"provisioning_status": schema.StringAttribute{Computed: true, MarkdownDescription: "Identity's provisioning status of the project."},
		},
		find:   identity.Objects.Project,
		common: func(m *projectLookup) *lookupModel { return &m.lookupModel },
		set: func(ctx context.Context, m *projectLookup, p *identity.Project, diags *diag.Diagnostics) {
			m.GroupIDs = setOf(ctx, p.GroupIDs, diags)
			m.Status = types.StringValue(p.ProvisioningStatus)
			m.setFound(ctx, &p.Record, p.WriteMetadata, diags)
		},
	}
}

// NewGroupDataSource returns the unikorn_group data source.
func NewGroupDataSource() datasource.DataSource {
	return &objectDataSource[identity.Group, groupLookup]{
		DataSource: family.DataSource{Name: GroupTypeName, Looks: "look the group up"}, noun: "group",
		description: "Looks up a group, by `id` or by `name` in the organization, for a project's `group_ids` " +
			"or a service account's.",
		extra: map[string]schema.Attribute{
			"role_ids":            schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Roles the group's members hold."},
			"user_ids":            schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Users in the group."},
			"service_account_ids": schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Service accounts in the group."},
		},
		find:   identity.Objects.Group,
		common: func(m *groupLookup) *lookupModel { return &m.lookupModel },
		set: func(ctx context.Context, m *groupLookup, g *identity.Group, diags *diag.Diagnostics) {
			m.RoleIDs = setOf(ctx, g.RoleIDs, diags)
			m.UserIDs = setOf(ctx, g.UserIDs, diags)
			m.ServiceAccountIDs = setOf(ctx, g.ServiceAccountIDs, diags)
			m.setFound(ctx, &g.Record, g.WriteMetadata, diags)
		},
	}
}

// setFound fills a look-up's common attributes (see family.Metadata.Found).
func (m *lookupModel) setFound(ctx context.Context, record *identity.Record, metadata cloud.WriteMetadata, diags *diag.Diagnostics) {
	m.ID = types.StringValue(record.ID)
	m.OrganizationID = types.StringValue(record.OrganizationID)
	m.Found(ctx, metadata.Name, metadata.Description, cloud.TagMap(metadata.Tags), diags)
}

func (d *objectDataSource[T, M]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("name")
}

func (d *objectDataSource[T, M]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Optional: true, Computed: true, MarkdownDescription: "ID of the " + d.noun + "; give this or `name`.",
			Validators: []validator.String{validators.UUID()},
		},
		"name": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Name of the " + d.noun + "; give this or `id`. Names are not unique: a name that " +
				"several carry is an error that lists their IDs.",
		},
		"organization_id": organizationAttribute(),
		"description":     schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the " + d.noun + "."},
		"tags":            schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the " + d.noun + "."},
	}

	for _, name := range []string{"group_ids", "role_ids", "user_ids", "service_account_ids", "provisioning_status"} {
		if attribute, ok := d.extra[name]; ok {
			attributes[name] = attribute
		}
	}

	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: attributes}
}

func (d *objectDataSource[T, M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m M

	common := d.common(&m)

	organizationID, ok := begin(ctx, &d.DataSource, req.Config, &m, func() types.String { return common.OrganizationID }, &resp.Diagnostics)
	if !ok {
		return
	}

	object, err := d.find(d.Provider.Identity, ctx, identity.Selector{
		ID: common.ID.ValueString(), Name: common.Name.ValueString(), OrganizationID: organizationID,
	})
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Identity("Unable to find the "+d.noun, err)...)

		return
	}

	d.set(ctx, &m, object, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// NewUserDataSource returns the unikorn_user data source.
func NewUserDataSource() datasource.DataSource {
	return &userDataSource{family.DataSource{Name: UserTypeName, Looks: "look the user up"}}
}

type userDataSource struct{ family.DataSource }

type userLookup struct {
	ID             types.String `tfsdk:"id"`
	Subject        types.String `tfsdk:"subject"`
	OrganizationID types.String `tfsdk:"organization_id"`
	State          types.String `tfsdk:"state"`
	GroupIDs       types.Set    `tfsdk:"group_ids"`
	LastActive     types.String `tfsdk:"last_active"`
}

func (d *userDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("subject")
}

func (d *userDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up a user of the organization, by `id` or by `subject` (their email address), " +
			"for a group's `user_ids`. Reading users needs `identity:users` `read`, which an organization " +
			"administrator holds.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true, MarkdownDescription: "ID of the user; give this or `subject`.",
				Validators: []validator.String{validators.UUID()},
			},
			"subject": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Subject of the user, their email address; give this or `id`.",
			},
			"organization_id": organizationAttribute(),
			"state":           schema.StringAttribute{Computed: true, MarkdownDescription: "The user's state: `active`, `pending` or `suspended`."},
			"group_ids": schema.SetAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Every group the user is in, whichever side made the membership.",
			},
			"last_active": schema.StringAttribute{
				Computed: true, MarkdownDescription: "When the user last signed in, RFC 3339; null if never.",
			},
		},
	}
}

func (d *userDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m userLookup

	organizationID, ok := begin(ctx, &d.DataSource, req.Config, &m, func() types.String { return m.OrganizationID }, &resp.Diagnostics)
	if !ok {
		return
	}

	user, err := d.Provider.Identity.User(ctx, identity.Selector{
		ID: m.ID.ValueString(), Name: m.Subject.ValueString(), OrganizationID: organizationID,
	})
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Identity("Unable to find the user", err)...)

		return
	}

	m.ID = types.StringValue(user.ID)
	m.OrganizationID = types.StringValue(user.OrganizationID)
	m.Subject = types.StringValue(user.Subject)
	m.State = types.StringValue(user.State)
	m.GroupIDs = setOf(ctx, user.GroupIDs, &resp.Diagnostics)
	m.LastActive = types.StringNull()

	if user.LastActive != nil {
		m.LastActive = types.StringValue(user.LastActive.UTC().Format(time.RFC3339))
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// OrganizationTypeName is the organization data source's Terraform type.
const OrganizationTypeName = "unikorn_organization"

// NewOrganizationDataSource returns the unikorn_organization data source.
func NewOrganizationDataSource() datasource.DataSource {
	return &organizationDataSource{family.DataSource{Name: OrganizationTypeName, Looks: "read the organization"}}
}

type organizationDataSource struct{ family.DataSource }

type organizationModel struct {
	family.Metadata

	ID               types.String `tfsdk:"id"`
	OrganizationType types.String `tfsdk:"organization_type"`
	Domain           types.String `tfsdk:"domain"`
	ProviderScope    types.String `tfsdk:"provider_scope"`
	ProviderID       types.String `tfsdk:"provider_id"`
}

func (d *organizationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	optional := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description + " Null when it has none."}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an organization's settings: its name, its type, and, for an organization " +
			"that signs its users in through an identity provider of its own, its email domain and that provider, " +
			"which modules need to name things.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "ID of the organization; defaults to the provider's `organization_id`.",
				Validators:          []validator.String{validators.UUID()},
			},
			"name":              schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the organization."},
			"description":       schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the organization."},
			"tags":              schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the organization."},
			"organization_type": schema.StringAttribute{Computed: true, MarkdownDescription: "How the organization's users sign in: `adhoc` (users are added by group membership, and sign in through a provider they choose) or `domain` (users sign in by their email address, whose domain maps to the organization's identity provider)."},
			"domain":            optional("The email domain whose users belong to the organization, for a `domain` organization."),
			"provider_scope":    optional("Where the identity provider is found: `global`, one built into identity (e.g. Google, Microsoft), or `organization`, one of the organization's own."),
			"provider_id":       optional("ID of the organization's identity provider."),
		},
	}
}

func (d *organizationDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m organizationModel

	if !d.Begin(ctx, req.Config, &m, &resp.Diagnostics) {
		return
	}

	id := d.Provider.Organization(m.ID, path.Root("id"), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	organization, err := d.Provider.Identity.Organization(ctx, id)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Identity("Unable to read the organization", err)...)

		return
	}

	m.ID = types.StringValue(organization.ID)
	m.Found(ctx, organization.Name, organization.Description, cloud.TagMap(organization.Tags), &resp.Diagnostics)
	m.OrganizationType = types.StringValue(organization.Type)
	m.Domain = family.OptionalString(organization.Domain)
	m.ProviderScope = family.OptionalString(organization.ProviderScope)
	m.ProviderID = family.OptionalString(organization.ProviderID)

	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
