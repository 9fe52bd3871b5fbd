// Package identity holds the Terraform types of identity's objects: projects, groups
// and service accounts (resources), a service account's token (an ephemeral
// resource), and the roles, projects, groups and quotas a configuration looks up.
package identity

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/importing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// uuids checks every member of a set of IDs at plan time.
func uuids() validator.Set {
	return setvalidator.ValueStringsAre(validators.UUID())
}

const (
	// projectTimeout bounds a project's create and delete: identity's controller
	// provisions a namespace, and a delete waits for every service to let go.
	projectTimeout = 20 * time.Minute
	// memberTimeout bounds the synchronous groups and service accounts, whose waits
	// only ride out the read lag.
	memberTimeout = 5 * time.Minute
)

var (
	pathOrganizationID   = path.Root("organization_id")
	pathServiceAccountID = path.Root("service_account_id")
)

// commonModel is what every identity object carries.
type commonModel struct {
	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	Name           types.String `tfsdk:"name"`
	Description    types.String `tfsdk:"description"`
	Tags           types.Map    `tfsdk:"tags"`
}

type timed struct {
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *commonModel) writeMetadata(ctx context.Context, diags *diag.Diagnostics) identity.WriteMetadata {
	metadata := identity.WriteMetadata{Name: m.Name.ValueString(), Description: m.Description.ValueString()}

	tags := map[string]string{}
	diags.Append(m.Tags.ElementsAs(ctx, &tags, false)...)

	names := make([]string, 0, len(tags))
	for name := range tags {
		names = append(names, name)
	}

	slices.Sort(names)

	for _, name := range names {
		metadata.Tags = append(metadata.Tags, identity.Tag{Name: name, Value: tags[name]})
	}

	return metadata
}

// setCommon fills the model from identity's metadata. An unset description or tags
// stay null rather than becoming "" or {}, so that the configuration matches.
func (m *commonModel) setCommon(ctx context.Context, id, organizationID, name, description string, tags []identity.Tag, diags *diag.Diagnostics) {
	m.ID = types.StringValue(id)
	m.OrganizationID = types.StringValue(organizationID)
	m.Name = types.StringValue(name)

	if description != "" || !m.Description.IsNull() {
		m.Description = types.StringValue(description)
	}

	if len(tags) == 0 && m.Tags.IsNull() {
		return
	}

	values := make(map[string]string, len(tags))
	for _, tag := range tags {
		values[tag.Name] = tag.Value
	}

	value, d := types.MapValueFrom(ctx, types.StringType, values)
	diags.Append(d...)
	m.Tags = value
}

func setOf(ctx context.Context, ids []string, diags *diag.Diagnostics) types.Set {
	if ids == nil {
		ids = []string{}
	}

	value, d := types.SetValueFrom(ctx, types.StringType, ids)
	diags.Append(d...)

	return value
}

func stringsOf(ctx context.Context, set types.Set, diags *diag.Diagnostics) []string {
	ids := []string{}
	if set.IsNull() || set.IsUnknown() {
		return ids
	}

	diags.Append(set.ElementsAs(ctx, &ids, false)...)
	slices.Sort(ids)

	return ids
}

// configured is what a Terraform type keeps from the provider's configuration.
type configured struct {
	provider *providerdata.Data
}

func (c *configured) configure(data any, diags *diag.Diagnostics) {
	if provider := providerdata.From(data, diags); provider != nil {
		c.provider = provider
	}
}

func (c *configured) organization(value types.String, diags *diag.Diagnostics) string {
	return c.provider.Organization(value, pathOrganizationID, diags)
}

// readConfig is what every data source's Read starts with: the configuration into m,
// then, once Unikorn is reachable to do what, the organization that organizationID
// (read from m) names or the provider's. It reports false with diagnostics when the
// read cannot go on.
func (c *configured) readConfig(ctx context.Context, config tfsdk.Config, m any, what string,
	organizationID func() types.String, diags *diag.Diagnostics,
) (string, bool) {
	if diags.Append(config.Get(ctx, m)...); diags.HasError() || !c.provider.Reachable(what, providerdata.RemedyDataSource, diags) {
		return "", false
	}

	organization := c.organization(organizationID(), diags)

	return organization, !diags.HasError()
}

// managed is what the resources share: the provider's configuration, their identity,
// import, and the questions each operation asks first.
type managed struct {
	configured
	identified

	noun string
	// typeName is the resource's Terraform type.
	typeName string
}

// reachable says whether a create, an update or a delete, which run when Terraform
// applies, can reach Unikorn.
func (m *managed) reachable(operation string, diags *diag.Diagnostics) bool {
	return m.provider.Reachable(operation+" the "+m.noun, providerdata.RemedyApply, diags)
}

// refreshable says whether Read can read the object, or leaves it as the state has it.
func (m *managed) refreshable(id types.String, diags *diag.Diagnostics) bool {
	return m.provider.Refreshable(m.noun, id.ValueString(), diags)
}

// ModifyPlan replaces an object identity is deleting.
func (m *managed) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	m.planDeleting(ctx, req, resp)
}

// planDeleting replaces an object identity is deleting; a project's deletion is held
// while other services' objects reference it.
func (m *managed) planDeleting(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	deletion := private.Deletion{Noun: m.noun}
	if m.typeName == ProjectTypeName {
		deletion.Holds = "Identity holds a project's deletion until no object of another service references it " +
			"(region's networks, security groups, SSH certificate authorities, load balancers and file storage, " +
			"compute's instances in it); those this configuration manages in the project are replaced with it, and " +
			"deleted before it, and any other must be deleted before the apply's delete times out."
	}

	return deletion.PlanDeleting(ctx, req, resp)
}

// ImportState takes `ORGANIZATION_ID/ID`, the ID alone (in the provider's
// organization, which the read fills in), or the identity.
func (m *managed) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importing.Type{
		Name: m.typeName, Noun: m.noun, Forms: []importing.Form{importing.ID, {"organization_id", "id"}},
	}.Import(ctx, m.provider, req, resp)
}

// identified gives the resources their identity, organization and ID.
type identified struct{}

type identityModel struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	ID             types.String `tfsdk:"id"`
}

func (identified) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"organization_id": identityschema.StringAttribute{RequiredForImport: true, Description: "Organization the object belongs to."},
		"id":              identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the object in identity."},
	}}
}

func saveIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, m *commonModel, diags *diag.Diagnostics) {
	if identity != nil {
		diags.Append(identity.Set(ctx, identityModel{OrganizationID: m.OrganizationID, ID: m.ID})...)
	}
}

// failed reports a failed operation on an object.
func failed(operation, noun string, err error) diag.Diagnostics {
	return diagnostic.Identity(fmt.Sprintf("Unable to %s the %s", operation, noun), err)
}

func timeoutsAttribute(ctx context.Context) schema.Attribute {
	return timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true})
}
