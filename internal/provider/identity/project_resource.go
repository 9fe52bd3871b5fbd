package identity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/deadline"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// ProjectTypeName is the project resource's and data source's Terraform type.
const ProjectTypeName = "unikorn_project"

var (
	_ resource.ResourceWithConfigure   = (*projectResource)(nil)
	_ resource.ResourceWithImportState = (*projectResource)(nil)
	_ resource.ResourceWithIdentity    = (*projectResource)(nil)
)

// NewProjectResource returns the unikorn_project resource.
func NewProjectResource() resource.Resource {
	return &projectResource{managed{noun: "project", typeName: ProjectTypeName}}
}

type projectResource struct {
	managed
}

type projectModel struct {
	commonModel
	GroupIDs types.Set `tfsdk:"group_ids"`
	timed
}

func (r *projectResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = ProjectTypeName
}

func (r *projectResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

// commonAttributes are the attributes every identity resource has; noun names the object.
func commonAttributes(noun string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true, MarkdownDescription: "ID of the " + noun + ".",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"organization_id": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Organization of the " + noun + "; defaults to the provider's `organization_id`. " +
				"Changing it replaces the " + noun + ".",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			Validators:    []validator.String{validators.UUID()},
		},
		"name": schema.StringAttribute{
			Required: true, MarkdownDescription: "Name of the " + noun + "; identity can rename it in place.",
			Validators: []validator.String{stringvalidator.LengthBetween(1, 63)},
		},
		"description": schema.StringAttribute{
			Optional: true, MarkdownDescription: "Description of the " + noun + ".",
		},
		"tags": schema.MapAttribute{
			Optional: true, ElementType: types.StringType, MarkdownDescription: "Tags of the " + noun + ", by name.",
		},
	}
}

func (r *projectResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := commonAttributes("project")
	attributes["group_ids"] = schema.SetAttribute{
		Optional: true, Computed: true, ElementType: types.StringType, Default: setdefault.StaticValue(types.SetValueMust(types.StringType, nil)),
		MarkdownDescription: "Groups whose project-scoped roles apply in the project: their members, users and " +
			"service accounts, may use it as those roles allow. Identity refuses a group that does not exist " +
			"(400); deleting a group takes it out of every project.",
		Validators: []validator.Set{uuids()},
	}
	attributes["timeouts"] = timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true})

	resp.Schema = schema.Schema{
		MarkdownDescription: "A project: where everything else is made. Identity creates it asynchronously, so " +
			"the create waits until it is provisioned. Only a token whose groups hold an organization-scoped role " +
			"with `identity:projects` `create` may create one: the organization administrator role " +
			"(`administrator`). A delete waits until identity no longer has the project, which it keeps while " +
			"other services (region's networks, compute's instances, ...) still reference it; when that outlasts " +
			"the delete timeout, the error says what the token can still see in the project.",
		Attributes: attributes,
	}
}

func (r *projectResource) write(ctx context.Context, plan *projectModel, diags *diag.Diagnostics) identity.ProjectWrite {
	return identity.ProjectWrite{
		Metadata: plan.writeMetadata(ctx, diags),
		Spec:     identity.ProjectSpec{GroupIDs: stringsOf(ctx, plan.GroupIDs, diags)},
	}
}

func (r *projectResource) set(ctx context.Context, m *projectModel, project *identity.Project, diags *diag.Diagnostics) {
	md := project.Metadata
	m.setCommon(ctx, md.ID, md.OrganizationID, md.Name, md.Description, md.Tags, diags)
	m.GroupIDs = setOf(ctx, project.Spec.GroupIDs, diags)
}

func (r *projectResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan projectModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !r.reachable("create", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Create, projectTimeout, &resp.Diagnostics)
	defer cancel()

	organizationID := r.organization(plan.OrganizationID, &resp.Diagnostics)
	write := r.write(ctx, &plan, &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	project, err := r.provider.Identity.CreateProject(ctx, organizationID, write)
	if project != nil {
		// Saved even when the wait failed: the project exists, and the next apply
		// replaces it rather than making another.
		r.set(ctx, &plan, project, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		saveIdentity(ctx, resp.Identity, &plan.commonModel, &resp.Diagnostics)
		private.KeepCreationTime(ctx, resp.Private, project.Metadata.CreationTime, &resp.Diagnostics)
		private.KeepDeleting(ctx, resp.Private, cloud.Deleting(&project.Metadata.ReadMetadata), &resp.Diagnostics)
	}

	if err != nil {
		resp.Diagnostics.Append(failed("create", "project", err)...)
	}
}

func (r *projectResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state projectModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || !r.refreshable(state.ID, &resp.Diagnostics) {
		return
	}

	organizationID := r.organization(state.OrganizationID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	project, err := r.provider.Identity.ReadProject(ctx, organizationID, state.ID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(failed("read", "project", err)...)

		return
	}

	if project == nil {
		resp.State.RemoveResource(ctx)

		return
	}

	r.set(ctx, &state, project, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	saveIdentity(ctx, resp.Identity, &state.commonModel, &resp.Diagnostics)
	private.KeepCreationTime(ctx, resp.Private, project.Metadata.CreationTime, &resp.Diagnostics)
	private.KeepDeleting(ctx, resp.Private, cloud.Deleting(&project.Metadata.ReadMetadata), &resp.Diagnostics)
}

func (r *projectResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan projectModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !r.reachable("update", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Update, projectTimeout, &resp.Diagnostics)
	defer cancel()

	write := r.write(ctx, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	project, err := r.provider.Identity.UpdateProject(ctx, plan.OrganizationID.ValueString(), plan.ID.ValueString(), write)
	if err != nil {
		resp.Diagnostics.Append(failed("update", "project", err)...)

		return
	}

	r.set(ctx, &plan, project, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	saveIdentity(ctx, resp.Identity, &plan.commonModel, &resp.Diagnostics)
}

func (r *projectResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state projectModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || !r.reachable("delete", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, state.Timeouts.Delete, projectTimeout, &resp.Diagnostics)
	defer cancel()

	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	if err := r.provider.Identity.DeleteProject(ctx, state.OrganizationID.ValueString(), state.ID.ValueString(), created); err != nil {
		resp.Diagnostics.Append(failed("delete", "project", err)...)
	}
}
