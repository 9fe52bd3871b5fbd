// Package instance is unikorn_compute_instance as a resource, a data source and a list
// resource: it maps the Terraform schema to and from the compute façade, which does
// all the work.
package instance

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/importing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
)

// TypeName is the resource's Terraform type.
const TypeName = "unikorn_compute_instance"

// defaultTimeout applies to create, update and delete when the configuration sets none.
// Bare-metal machines can take many minutes to provision.
const defaultTimeout = 30 * time.Minute

// privateHandleKey keeps the back end's compute.Handle in private state, so that what
// the instance holds (the region back end's quota allocation) can be released even
// when the instance can no longer be read. The key predates other back ends and stays
// as it is so that existing state keeps working.
const privateHandleKey = "allocation_id"

// privateInstanceAPIKey records which back end made the instance: each knows only its
// own instances (compute has no record of a server made on region, and region's
// server API cannot manage what compute made: compute puts back a server deleted
// behind its back).
const privateInstanceAPIKey = "instance_api"

// instanceAPIOfOldState is the back end of an instance recorded before the back end
// was: the region back end, the only one then, which is also the one that leaves a
// handle.
const instanceAPIOfOldState = "region"

var (
	_ resource.Resource                = (*Resource)(nil)
	_ resource.ResourceWithConfigure   = (*Resource)(nil)
	_ resource.ResourceWithImportState = (*Resource)(nil)
	_ resource.ResourceWithIdentity    = (*Resource)(nil)
	_ resource.ResourceWithModifyPlan  = (*Resource)(nil)
)

// Resource is unikorn_compute_instance. Its lifecycle is its own (two back ends, the
// handle in private state that releases what an instance holds, a server that vanished
// behind Terraform's back), and so is its identity, which carries the project: it
// stands on family.Base alone.
type Resource struct {
	family.Base
}

// NewResource returns the resource for the provider to serve.
func NewResource() resource.Resource {
	return &Resource{family.Base{Type: family.Type{
		Name: TypeName, Noun: "instance", Service: "compute", Scope: family.Global,
		Timeout: defaultTimeout, Diagnose: diagnostic.Compute,
	}}}
}

// sameInstanceAPI reports whether the instance in state was made by the configured
// back end, and otherwise says why the provider cannot manage it.
func (r *Resource) sameInstanceAPI(ctx context.Context, state *model, privateState private.Reader, diags *diag.Diagnostics) bool {
	raw, d := privateState.GetKey(ctx, privateInstanceAPIKey)
	diags.Append(d...)

	var made string
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &made) // unreadable: as if not recorded
	}

	if made == "" && privateHandle(ctx, privateState, diags) != "" {
		made = instanceAPIOfOldState
	}

	if made == "" || made == r.Provider.InstanceAPI {
		return true
	}

	diags.Append(diagnostic.InstanceAPIMismatch(state.Name.ValueString(), state.ID.ValueString(), made, r.Provider.InstanceAPI))

	return false
}

func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config model

	ctx, cancel, ok := r.Begin(ctx, req.Plan, &plan, "create", &resp.Diagnostics)
	defer cancel()

	if !ok {
		return
	}

	// Write-only values exist only in the configuration.
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}

	plan.UserDataWO = config.UserDataWO
	spec := plan.spec(ctx, &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	// Record the instance before waiting, so that a failed wait leaves it in state
	// (tainted, to be replaced) rather than unknown to Terraform; so is one whose
	// creation failed without saying whether it exists, for the next run to read.
	instance, err := r.Provider.Instances.Create(ctx, spec)
	if instance != nil {
		r.save(ctx, &plan, instance, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}

	if err != nil {
		resp.Diagnostics.Append(r.Failed("create", err)...)

		return
	}

	if resp.Diagnostics.HasError() {
		return
	}

	ready, err := r.Provider.Instances.WaitReady(ctx, instance)
	if ready != nil {
		r.save(ctx, &plan, ready, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}

	if err != nil {
		resp.Diagnostics.Append(diagnostic.Compute("Instance did not become ready", err)...)
	}
}

func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state model

	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)

	if resp.Diagnostics.HasError() || !r.Provider.Refreshable(r.Noun, state.ID.ValueString(), &resp.Diagnostics) {
		return
	}

	if !r.sameInstanceAPI(ctx, &state, req.Private, &resp.Diagnostics) {
		return
	}

	// Get takes the instance for gone only on a definite answer (see compute.Get);
	// a token that lost access is an error, and the instance stays in state.
	instance, err := r.Provider.Instances.Get(ctx, state.ref())
	if errors.Is(err, compute.ErrNotFound) {
		r.vanished(ctx, &state, req.Private, resp)

		return
	}

	if err != nil {
		resp.Diagnostics.Append(r.Failed("read", err)...)

		return
	}

	r.save(ctx, &state, instance, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state model
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}

	ctx, cancel, ok := r.Begin(ctx, req.Plan, &plan, "update", &resp.Diagnostics)
	defer cancel()

	if !ok || !r.sameInstanceAPI(ctx, &state, req.Private, &resp.Diagnostics) {
		return
	}

	spec := plan.spec(ctx, &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	instance, err := r.Provider.Instances.Update(ctx, state.ref(), spec)
	if instance != nil {
		r.save(ctx, &plan, instance, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}

	if err != nil {
		resp.Diagnostics.Append(r.Failed("update", err)...)
	}
}

func (r *Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state model

	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)

	if resp.Diagnostics.HasError() || !r.Reachable("delete", &resp.Diagnostics) {
		return
	}

	if !r.sameInstanceAPI(ctx, &state, req.Private, &resp.Diagnostics) {
		return
	}

	ctx, cancel := r.Within(ctx, state.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()

	handle := privateHandle(ctx, req.Private, &resp.Diagnostics)
	last := state.seen()
	last.CreateAnswered = private.CreateAnswered(ctx, req.Private, &resp.Diagnostics)

	if err := r.Provider.Instances.Delete(ctx, last, handle); err != nil {
		resp.Diagnostics.Append(r.Failed("delete", err)...)
	}
}

// ImportState accepts `<id>`, `<organization_id>/<project_id>/<id>`, or an identity:
// the project, which the identity carries, narrows the search.
func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importing.Type{
		Name: r.Name, Noun: r.Noun, Forms: []importing.Form{importing.ID, {"organization_id", "project_id", "id"}},
	}.Import(ctx, r.Provider, req, resp)
}

// save writes instance into m, and m into state, identity and private state.
func (r *Resource) save(ctx context.Context, m *model, instance *compute.Instance, state *tfsdk.State,
	identity *tfsdk.ResourceIdentity, privateState private.Writer, diags *diag.Diagnostics,
) {
	m.setFrom(ctx, instance, diags)

	// An imported instance has no user data in state; the cloud keeps it, so it is
	// read back, unless it came from the write-only attribute. Otherwise the
	// configuration's text stands.
	if m.UserData.IsNull() && m.UserDataWOVersion.IsNull() && instance.Spec.UserData != "" {
		m.UserData = types.StringValue(instance.Spec.UserData)
	}

	// Write-only values are never persisted.
	m.UserDataWO = types.StringNull()
	diags.Append(state.Set(ctx, m)...)

	if identity != nil {
		diags.Append(identity.Set(ctx, m.identity())...)
	}

	private.KeepDeleting(ctx, privateState, instance.Deleting(), diags)
	private.KeepCreateAnswered(ctx, privateState, instance.CreateAnswered, diags)

	if instance.Handle != "" {
		value, _ := json.Marshal(instance.Handle) //nolint:errchkjson // a string always marshals
		diags.Append(privateState.SetKey(ctx, privateHandleKey, value)...)
	}

	if api := r.Provider.InstanceAPI; api != "" {
		value, _ := json.Marshal(api) //nolint:errchkjson // a string always marshals
		diags.Append(privateState.SetKey(ctx, privateInstanceAPIKey, value)...)
	}
}

// vanishedStatus marks, in state, an instance whose server was deleted behind
// Terraform's back while its quota is still charged (see vanished).
const vanishedStatus = "deleted"

// vanished records that the instance's server is gone. Read runs during plan, and a
// plan never writes: an instance whose quota allocation is known stays in state,
// marked, so that the next apply replaces it and its delete releases the quota. One
// with nothing to release is simply forgotten.
func (r *Resource) vanished(ctx context.Context, state *model, privateState private.Reader, resp *resource.ReadResponse) {
	tflog.Warn(ctx, "instance server no longer exists", map[string]any{"id": state.ID.ValueString()})

	if privateHandle(ctx, privateState, &resp.Diagnostics) == "" {
		resp.State.RemoveResource(ctx)

		return
	}

	state.ProvisioningStatus = types.StringValue(vanishedStatus)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func privateHandle(ctx context.Context, privateState private.Reader, diags *diag.Diagnostics) compute.Handle {
	raw, d := privateState.GetKey(ctx, privateHandleKey)
	diags.Append(d...)

	var handle compute.Handle
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &handle); err != nil {
			diags.AddWarning("Unreadable private state", "What the provider recorded for deleting the instance could not be read: "+err.Error())
		}
	}

	return handle
}
