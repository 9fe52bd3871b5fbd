// Package family is the skeleton every resource family of the provider stands on, so
// that a new family is its schema, its model and the calls its service makes, and
// nothing else: Resource answers everything a resource type has in common (type name,
// configuration, identity and import, refresh, delete, the plan of an object being
// deleted, and saving what a create or an update got back); DataSource and List do the
// same for data sources and list resources; Metadata is the name, description and tags
// of every object. DESIGN.md's "Adding a family" walks through using them.
package family

import (
	"cmp"
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/deadline"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/importing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// PathOrganizationID is the attribute that names an object's organization.
var PathOrganizationID = path.Root("organization_id")

// Scope is what names an object of a type uniquely, and so its identity and the
// import IDs the type accepts.
type Scope int

const (
	// Global objects are named by their ID alone: region's and compute's IDs are
	// unique across organizations and projects.
	Global Scope = iota
	// InOrganization objects are named by their organization and ID: identity's.
	InOrganization
)

// Type is what the skeleton needs to know of a resource type.
type Type struct {
	// Name is the Terraform type, e.g. unikorn_network.
	Name string
	// Noun names one object in diagnostics, e.g. "network".
	Noun string
	// Service names the Unikorn service that keeps the objects, in the identity
	// schema's descriptions, e.g. "region".
	Service string
	Scope   Scope
	// Timeout bounds a create, update or delete whose configuration sets none.
	Timeout time.Duration
	// UpdateTimeout and DeleteTimeout, when set, bound an update or a delete whose
	// configuration sets none instead of Timeout: for a type whose update or delete
	// takes another time than its create.
	UpdateTimeout, DeleteTimeout time.Duration
	// Diagnose maps the family's errors to diagnostics (see package diagnostic).
	Diagnose func(summary string, err error) diag.Diagnostics
	// Holds says what the cloud waits for before an object being deleted is gone
	// (private.Deletion), if anything.
	Holds string
}

// Base answers what every resource type has, whatever its objects: Metadata,
// Configure, IdentitySchema and ImportState. Embedded (through Resource, or alone by a
// type whose lifecycle is its own), it also gives the operations their first questions.
type Base struct {
	Type

	Provider *providerdata.Data
}

func (b *Base) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.Name
}

func (b *Base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		b.Provider = providerdata.From(req.ProviderData, &resp.Diagnostics)
	}
}

// IdentitySchema names an object as its Scope says.
func (b *Base) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	attributes := map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the " + b.Noun + " in " + b.Service + "."},
	}

	if b.Scope == InOrganization {
		attributes["organization_id"] = identityschema.StringAttribute{RequiredForImport: true, Description: "Organization the " + b.Noun + " belongs to."}
	}

	resp.IdentitySchema = identityschema.Schema{Attributes: attributes}
}

// ImportState takes the object's ID, or its identity; an object in an organization
// also `ORGANIZATION_ID/ID`, and its ID alone is looked for in the provider's
// organization.
func (b *Base) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	forms := []importing.Form{importing.ID}
	if b.Scope == InOrganization {
		forms = append(forms, importing.Form{"organization_id", "id"})
	}

	importing.Type{Name: b.Name, Noun: b.Noun, Forms: forms}.Import(ctx, b.Provider, req, resp)
}

// Reachable says whether a create, an update or a delete, which run when Terraform
// applies, can reach Unikorn.
func (b *Base) Reachable(operation string, diags *diag.Diagnostics) bool {
	return b.Provider.Reachable(operation+" the "+b.Noun, providerdata.RemedyApply, diags)
}

// Within bounds an operation by the resource's `timeouts` for it (one of the
// timeouts.Value methods, e.g. m.Timeouts.Create), or the type's Timeout.
func (b *Base) Within(ctx context.Context, limit func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics,
) (context.Context, context.CancelFunc) {
	return deadline.Within(ctx, limit, b.Timeout, diags)
}

// Begin starts a create or an update (operation) as each starts: the plan into m,
// whether Unikorn can be reached, and a context bounded by m's timeouts for the
// operation (or the type's Timeout). It reports false, with diagnostics, when the
// operation cannot go on; the caller defers cancel either way.
func (b *Base) Begin(ctx context.Context, plan tfsdk.Plan, m Limited, operation string,
	diags *diag.Diagnostics,
) (context.Context, context.CancelFunc, bool) {
	if diags.Append(plan.Get(ctx, m)...); diags.HasError() || !b.Reachable(operation, diags) {
		return ctx, func() {}, false
	}

	limit, fallback := m.Limits().Create, b.Timeout
	if operation == "update" {
		limit = m.Limits().Update
		fallback = cmp.Or(b.UpdateTimeout, b.Timeout)
	}

	ctx, cancel := deadline.Within(ctx, limit, fallback, diags)

	return ctx, cancel, !diags.HasError()
}

// Organization is the organization an object's organization_id names, or the
// provider's.
func (b *Base) Organization(value types.String, diags *diag.Diagnostics) string {
	return b.Provider.Organization(value, PathOrganizationID, diags)
}

// Failed reports a failed operation on an object, as the family maps its errors.
func (b *Base) Failed(operation string, err error) diag.Diagnostics {
	return b.Diagnose("Unable to "+operation+" the "+b.Noun, err)
}

// Key names one object to its service: its organization (for an InOrganization
// type, or one whose model has a Place), its project (where its model has a Place:
// the Kubernetes service's writes name the cluster's project) and its ID.
type Key struct {
	OrganizationID, ProjectID, ID string
}

// placed is a model with a Place.
type placed interface {
	Where() Place
}

// Limited is a resource's state, as an operation's deadline reads it.
type Limited interface {
	// Limits are the resource's timeouts.
	Limits() timeouts.Value
}

// Timed is the `timeouts` block of a resource, which its model embeds to be Limited.
type Timed struct {
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (t *Timed) Limits() timeouts.Value { return t.Timeouts }

// Model is a resource's state, as the skeleton reads it.
type Model interface {
	Limited
	// Keys are the object's organization (null for a Global type) and ID.
	Keys() (organizationID, id types.String)
}

// Resource answers, for a type whose objects are T and whose state is M, all that is
// the same for every such type: Base, and Read, Delete and ModifyPlan. A family's
// resource embeds it and adds Schema, Create and Update, each one call of Write.
type Resource[T any, M Model] struct {
	Base

	Object Object[T, M]
}

// Object is how a family's service keeps the objects of a type, and how its model
// holds one.
type Object[T any, M Model] struct {
	// New returns an empty model.
	New func() M
	// Read reads the object, nil when the service answers definitely that it is gone.
	Read func(context.Context, *providerdata.Data, Key) (*T, error)
	// Remove deletes the object and waits until it is gone; created is its creation
	// time, which tells a definite 404 from one still within the read lag.
	Remove func(context.Context, *providerdata.Data, Key, time.Time) error
	// Set fills the model from the object.
	Set func(context.Context, M, *T, *diag.Diagnostics)
	// Lifecycle is the object's creation time, and whether the service is deleting it
	// (cloud.Deleting).
	Lifecycle func(*T) (created time.Time, deleting bool)
}

// Key names the object m holds: an import by ID alone leaves an object in an
// organization to the provider's organization.
func (r *Resource[T, M]) Key(m M, diags *diag.Diagnostics) Key {
	organizationID, id := m.Keys()
	key := Key{ID: id.ValueString()}

	if r.Scope == InOrganization {
		key.OrganizationID = r.Organization(organizationID, diags)
	}

	return key
}

// ModifyPlan replaces an object the cloud is deleting. A type with plan-time checks of
// its own calls it first, and stops when it reports true.
func (r *Resource[T, M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.PlanDeleting(ctx, req, resp)
}

// PlanDeleting replaces an object the cloud is deleting, and reports whether it did.
func (r *Resource[T, M]) PlanDeleting(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	return private.Deletion{Noun: r.Noun, Holds: r.Holds}.PlanDeleting(ctx, req, resp)
}

// Read refreshes the state; only the service's definite answer that the object is gone
// removes it from the state.
func (r *Resource[T, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state := r.Object.New()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() {
		return
	}

	if _, id := state.Keys(); !r.Provider.Refreshable(r.Noun, id.ValueString(), &resp.Diagnostics) {
		return
	}

	key := r.Key(state, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	object, err := r.Object.Read(ctx, r.Provider, key)
	if err != nil {
		resp.Diagnostics.Append(r.Failed("read", err)...)

		return
	}

	if object == nil {
		resp.State.RemoveResource(ctx)

		return
	}

	r.Save(ctx, state, object, Refreshed(resp))
}

func (r *Resource[T, M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state := r.Object.New()
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() || !r.Reachable("delete", &resp.Diagnostics) {
		return
	}

	ctx, cancel := deadline.Within(ctx, state.Limits().Delete, cmp.Or(r.DeleteTimeout, r.Timeout), &resp.Diagnostics)
	defer cancel()

	organizationID, id := state.Keys()
	created := private.CreationTime(ctx, req.Private, &resp.Diagnostics)
	key := Key{OrganizationID: organizationID.ValueString(), ID: id.ValueString()}

	if m, ok := any(state).(placed); ok {
		key.ProjectID = m.Where().ProjectID.ValueString()
	}

	if err := r.Object.Remove(ctx, r.Provider, key, created); err != nil {
		resp.Diagnostics.Append(diagnostic.Held("Unable to delete the "+r.Noun, err, r.Diagnose)...)
	}
}

// Saved is where an operation saves an object: its response's state, identity and
// private state, and diagnostics; and which operation it is, as its diagnostics name
// it. Created, Updated and Refreshed make one.
type Saved struct {
	State     *tfsdk.State
	Identity  *tfsdk.ResourceIdentity
	Private   private.Writer
	Diags     *diag.Diagnostics
	Operation string
}

// Created is where a create saves.
func Created(resp *resource.CreateResponse) Saved {
	return Saved{&resp.State, resp.Identity, resp.Private, &resp.Diagnostics, "create"}
}

// Updated is where an update saves.
func Updated(resp *resource.UpdateResponse) Saved {
	return Saved{&resp.State, resp.Identity, resp.Private, &resp.Diagnostics, "update"}
}

// Refreshed is where a read saves.
func Refreshed(resp *resource.ReadResponse) Saved {
	return Saved{&resp.State, resp.Identity, resp.Private, &resp.Diagnostics, "read"}
}

// Save records object in the state, identity and private state, as m's resource sees it.
func (r *Resource[T, M]) Save(ctx context.Context, m M, object *T, to Saved) {
	r.Object.Set(ctx, m, object, to.Diags)
	to.Diags.Append(to.State.Set(ctx, m)...)
	SaveIdentity(ctx, r.Scope, m, to.Identity, to.Diags)

	created, deleting := r.Object.Lifecycle(object)
	private.KeepCreationTime(ctx, to.Private, created, to.Diags)
	private.KeepDeleting(ctx, to.Private, deleting, to.Diags)
}

// Write is a whole create or update, as to says which: Begin, with the plan into m;
// then send, which makes the request of m and sends it; then finish with its answer.
// send returns no object and no error when m makes no request, its diagnostics
// saying why.
func (r *Resource[T, M]) Write(ctx context.Context, plan tfsdk.Plan, m M, to Saved,
	send func(context.Context, *diag.Diagnostics) (*T, error),
) {
	ctx, cancel, ok := r.Begin(ctx, plan, m, to.Operation, to.Diags)
	defer cancel()

	if !ok {
		return
	}

	object, err := send(ctx, to.Diags)
	r.finish(ctx, m, object, err, to)
}

// finish ends a create or an update: whatever the wait says, an object that exists is
// saved, so that Terraform keeps track of it, and a failure is reported.
func (r *Resource[T, M]) finish(ctx context.Context, m M, object *T, err error, to Saved) {
	if object != nil {
		r.Save(ctx, m, object, to)
	}

	if err != nil {
		to.Diags.Append(r.Failed(to.Operation, err)...)
	}
}

type globalIdentity struct {
	ID types.String `tfsdk:"id"`
}

type organizationIdentity struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	ID             types.String `tfsdk:"id"`
}

// SaveIdentity records m's identity, as scope names it. A type with a lifecycle of its
// own (Base alone) calls it where it saves.
func SaveIdentity(ctx context.Context, scope Scope, m Model, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}

	organizationID, id := m.Keys()
	diags.Append(identity.Set(ctx, IdentityOf(scope, organizationID, id))...)
}

// IdentityOf is the identity of the object organizationID and id name, as scope names
// it: what a list resource's results carry.
func IdentityOf(scope Scope, organizationID, id types.String) any {
	if scope == InOrganization {
		return organizationIdentity{OrganizationID: organizationID, ID: id}
	}

	return globalIdentity{ID: id}
}
