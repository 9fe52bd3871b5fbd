package identity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
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
	r := &projectResource{newResource(ProjectTypeName, "project", projectTimeout,
		func() *projectModel { return &projectModel{} },
		identity.Objects.ReadProject, identity.Objects.DeleteProject, setProject,
		func(project *identity.Project) *identity.Record { return &project.Record })}
	r.Holds = projectHolds

	return r
}

// projectHolds is what identity waits for before a project it is deleting is gone.
const projectHolds = "Identity holds a project's deletion until no object of another service references it " +
	"(region's networks, security groups, SSH certificate authorities, load balancers and file storage, " +
	"compute's instances in it); those this configuration manages in the project are replaced with it, and " +
	"deleted before it, and any other must be deleted before the apply's delete times out."

type projectResource struct {
	family.Resource[identity.Project, *projectModel]
}

type projectModel struct {
	commonModel
	GroupIDs types.Set `tfsdk:"group_ids"`
	family.Timed
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
			Required: true, MarkdownDescription: "Name of the " + noun + ": " + validators.NameRule + "; identity can rename it in place.",
			Validators: []validator.String{validators.Name(noun)},
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
	return identity.ProjectWrite{WriteMetadata: plan.Write(ctx, diags), GroupIDs: stringsOf(ctx, plan.GroupIDs, diags)}
}

// setProject fills the model from identity's record.
func setProject(ctx context.Context, m *projectModel, project *identity.Project, diags *diag.Diagnostics) {
	m.setKept(ctx, &project.Record, project.WriteMetadata, diags)
	m.GroupIDs = setOf(ctx, project.GroupIDs, diags)
}

// Create saves the project even when the wait failed: it exists, and the next apply
// replaces it rather than making another.
func (r *projectResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan projectModel

	create(ctx, &r.Resource, req, resp, &plan, func(ctx context.Context, diags *diag.Diagnostics) identity.ProjectWrite {
		return r.write(ctx, &plan, diags)
	}, identity.Objects.CreateProject)
}

func (r *projectResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan projectModel

	update(ctx, &r.Resource, req, resp, &plan, func(ctx context.Context, organizationID, id string, diags *diag.Diagnostics) (*identity.Project, error) {
		write := r.write(ctx, &plan, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Identity.UpdateProject(ctx, organizationID, id, write)
	})
}
