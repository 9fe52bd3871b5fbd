package identity

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
)

// ServiceAccountTypeName is the service account resource's Terraform type.
const ServiceAccountTypeName = "unikorn_service_account"

var (
	_ resource.ResourceWithConfigure   = (*serviceAccountResource)(nil)
	_ resource.ResourceWithImportState = (*serviceAccountResource)(nil)
	_ resource.ResourceWithIdentity    = (*serviceAccountResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*serviceAccountResource)(nil)
)

var (
	pathSealedToken = path.Root("sealed_token")
	pathTokenExpiry = path.Root("token_expiry")
)

// NewServiceAccountResource returns the unikorn_service_account resource.
func NewServiceAccountResource() resource.Resource {
	return &serviceAccountResource{newResource(ServiceAccountTypeName, "service account", memberTimeout,
		func() *serviceAccountModel { return &serviceAccountModel{} },
		identity.Objects.ReadServiceAccount, identity.Objects.DeleteServiceAccount, setServiceAccount,
		func(account *identity.ServiceAccount) *identity.Record { return &account.Record })}
}

// serviceAccountResource manages a service account. Identity answers its token only
// to the create and to each rotation; the resource keeps it in state only sealed
// under the provider's token_seal_key, and in this provider instance's memory for the
// rest of the run.
type serviceAccountResource struct {
	family.Resource[identity.ServiceAccount, *serviceAccountModel]
}

type serviceAccountModel struct {
	commonModel
	GroupIDs        types.Set    `tfsdk:"group_ids"`
	TokenExpiry     types.String `tfsdk:"token_expiry"`
	SealedToken     types.String `tfsdk:"sealed_token"`
	RotationTrigger types.Map    `tfsdk:"rotation_trigger"`
	family.Timed
}

func (r *serviceAccountResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := commonAttributes("service account")
	attributes["group_ids"] = schema.SetAttribute{
		Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Groups the service account joins; its token has the rights of every group it is in. " +
			"These are the groups this resource manages, and all it shows: an update takes the account out of a " +
			"group only when the group leaves this list, and leaves alone the groups that list the account in their " +
			"own `service_account_ids` (identity keeps the membership on the group). So a membership is managed " +
			"from one side: here, or in the group's `service_account_ids`, which, when set, is that group's whole " +
			"membership (see `unikorn_group`). Identity ignores IDs that name no group, which the provider reports " +
			"as an error. Unset, the account joins no group itself. An imported account names every group it is in.",
		Validators: []validator.Set{uuids()},
	}
	attributes["token_expiry"] = schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "When the account's current token expires, RFC 3339 (identity's default lifetime " +
			"is 90 days). Change `rotation_trigger` before then to issue a new one.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attributes["sealed_token"] = schema.StringAttribute{
		Computed: true, Sensitive: true,
		MarkdownDescription: "The account's access token, **sealed**: encrypted with AES-256-GCM under the provider's " +
			"`token_seal_key`, bound to this account, so that the state holds nothing that gives the token " +
			"without that key. Give it to the `unikorn_service_account_token` ephemeral resource, which opens it. " +
			"Null when the provider has no `token_seal_key` (the token is then kept nowhere), and for an account " +
			"imported, or whose create's answer was lost: change `rotation_trigger` to issue a token.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attributes["rotation_trigger"] = schema.MapAttribute{
		Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Any values, like the `keepers` of the `random` provider: changing them rotates the " +
			"account's token when Terraform applies (never when it plans), issuing a new token and revoking the " +
			"old one; the new one is sealed into `sealed_token`. For a rotation every 30 days, set it from a " +
			"`time_rotating` resource. Changed in place; the account and its groups stay.",
	}
	attributes["timeouts"] = timeoutsAttribute(ctx)

	resp.Schema = schema.Schema{
		MarkdownDescription: "A service account: a long-lived access token for automation, with the rights of its " +
			"groups. Identity shows the token once, in the answer to the create (and to each rotation). This " +
			"resource never keeps it in clear: with the provider's `token_seal_key` it keeps it **sealed** in " +
			"`sealed_token` (AES-256-GCM under that key, which Terraform stores nowhere), for the " +
			"`unikorn_service_account_token` ephemeral resource to open in this run and the next ones; without " +
			"the key it keeps it only in the provider's memory, for the ephemeral resource of the same provider " +
			"block in the run that created or rotated the account. A rotation happens only when " +
			"`rotation_trigger` changes. Identity has no read of one service account, so it is read from the " +
			"organization's list.",
		Attributes: attributes,
	}
}

// write is what to send for plan. current, the account as identity has it now, is
// nil for a create; for an update, the groups it is in that the state does not name
// (joined from the groups' side) are kept.
func (r *serviceAccountResource) write(ctx context.Context, plan, state *serviceAccountModel, current *identity.ServiceAccount,
	diags *diag.Diagnostics,
) identity.ServiceAccountWrite {
	groups := stringsOf(ctx, plan.GroupIDs, diags)
	if current != nil {
		groups = identity.Joined(current.GroupIDs, stringsOf(ctx, state.GroupIDs, diags), groups)
	}

	return identity.ServiceAccountWrite{WriteMetadata: plan.Write(ctx, diags), GroupIDs: groups}
}

// setServiceAccount fills the model from identity's record; the sealed token is the
// resource's own and stays as it is. A model that has no name yet is not filled yet
// (see groupsShown).
func setServiceAccount(ctx context.Context, m *serviceAccountModel, account *identity.ServiceAccount, diags *diag.Diagnostics) {
	m.GroupIDs = groupsShown(ctx, m.GroupIDs, account.GroupIDs, m.Name.IsNull(), diags)
	m.setKept(ctx, &account.Record, account.WriteMetadata, diags)
	m.TokenExpiry = types.StringValue(account.TokenExpiry.UTC().Format(time.RFC3339))
}

// keepToken holds the token an answer carried for the rest of the run and seals it
// into the model; with no token (an adopted create), or no key, nothing is sealed.
func (r *serviceAccountResource) keepToken(m *serviceAccountModel, account *identity.ServiceAccount, diags *diag.Diagnostics) {
	m.SealedToken = types.StringNull()

	token := account.AccessToken
	if token == "" {
		return
	}

	r.Provider.Tokens.Hold(account.ID, providerdata.Token{Token: token, Expiry: account.TokenExpiry})

	if r.Provider.SealKey == nil {
		return
	}

	sealed, err := seal.Seal(r.Provider.SealKey, account.ID, seal.Token{Token: token, Expiry: account.TokenExpiry})
	if err != nil {
		diags.Append(diagnostic.Error("Unable to seal the service account's token",
			fmt.Sprintf("The token of service account %s could not be sealed: %v. It is kept for this run only.", account.ID, err),
			"Change `rotation_trigger` to issue and seal a new one."))

		return
	}

	m.SealedToken = types.StringValue(sealed)
}

// ModifyPlan plans a rotation when rotation_trigger changes, and warns, without
// calling Unikorn, when the token in state cannot be handed on with this
// configuration.
func (r *serviceAccountResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() || r.PlanDeleting(ctx, req, resp) {
		return
	}

	var plan, state serviceAccountModel

	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)

	if resp.Diagnostics.HasError() {
		return
	}

	if !plan.RotationTrigger.Equal(state.RotationTrigger) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathSealedToken, types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, pathTokenExpiry, types.StringUnknown())...)

		return
	}

	if r.Provider == nil || state.SealedToken.IsUnknown() {
		return
	}

	name, id := state.Name.ValueString(), state.ID.ValueString()

	switch {
	case r.Provider.SealKey == nil:
		return
	case state.SealedToken.IsNull():
		resp.Diagnostics.AddAttributeWarning(pathSealedToken, "Service account token not kept",
			fmt.Sprintf("Service account %q (%s) has no sealed token: it was created without a `token_seal_key`, "+
				"imported, or its create's answer was lost. `unikorn_service_account_token` cannot hand its token on "+
				"in a later run. Change `rotation_trigger` to issue a new token, sealed with this key.", name, id))
	default:
		if _, err := seal.Open(r.Provider.SealKey, id, state.SealedToken.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeWarning(pathSealedToken, "Service account token sealed under another key",
				fmt.Sprintf("The sealed token of service account %q (%s) does not open with the provider's "+
					"`token_seal_key` (%v). Give the provider the key it was sealed with, or change `rotation_trigger` "+
					"to issue a new token, sealed with this key.", name, id, err))
		}
	}
}

// Create keeps the token the answer carries, and the account even when it was adopted
// without its token (a create whose answer was lost).
func (r *serviceAccountResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan serviceAccountModel

	ctx, cancel, ok := r.Begin(ctx, req.Plan, &plan, "create", &resp.Diagnostics)
	defer cancel()

	if !ok {
		return
	}

	organizationID := r.Organization(plan.OrganizationID, &resp.Diagnostics)
	write := r.write(ctx, &plan, nil, nil, &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	account, err := r.Provider.Identity.CreateServiceAccount(ctx, organizationID, write)
	if account != nil {
		r.keepToken(&plan, account, &resp.Diagnostics)
		r.Save(ctx, &plan, account, family.Created(resp))
	}

	if err != nil {
		// A create whose answer was lost adopts the account without its token: a
		// warning (see diagnostic.Identity).
		resp.Diagnostics.Append(r.Failed("create", err)...)
	}
}

// Update changes the account's metadata and groups, then, when rotation_trigger
// changed, rotates its token. The state is saved after each step, so a rotation
// that fails leaves the account updated and its old trigger and token in state: the
// next plan asks for the rotation again.
func (r *serviceAccountResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state serviceAccountModel

	ctx, cancel, ok := r.Begin(ctx, req.Plan, &plan, "update", &resp.Diagnostics)
	defer cancel()

	if !ok {
		return
	}

	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}

	organizationID, id := plan.OrganizationID.ValueString(), plan.ID.ValueString()
	rotate := !plan.RotationTrigger.Equal(state.RotationTrigger)

	// Until the rotation is done, the token is the old one.
	updated := plan
	updated.RotationTrigger, updated.SealedToken, updated.TokenExpiry = state.RotationTrigger, state.SealedToken, state.TokenExpiry

	if r.accountChanged(&plan, &state) {
		// The groups that list the account from their side are kept: read them now.
		current := currently(ctx, &r.Base, r.Provider.Identity.ReadServiceAccount, organizationID, id, &resp.Diagnostics)
		if current == nil {
			return
		}

		write := r.write(ctx, &plan, &state, current, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}

		account, err := r.Provider.Identity.UpdateServiceAccount(ctx, organizationID, id, write)
		if account != nil {
			setServiceAccount(ctx, &updated, account, &resp.Diagnostics)
			updated.TokenExpiry = state.TokenExpiry
			resp.Diagnostics.Append(resp.State.Set(ctx, &updated)...)
		}

		if err != nil {
			resp.Diagnostics.Append(r.Failed("update", err)...)

			return
		}
	}

	resp.Diagnostics.Append(resp.State.Set(ctx, &updated)...)
	family.SaveIdentity(ctx, r.Scope, &updated, resp.Identity, &resp.Diagnostics)

	if !rotate || resp.Diagnostics.HasError() {
		return
	}

	account, err := r.Provider.Identity.RotateServiceAccount(ctx, organizationID, id)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Error("Unable to rotate the service account's token", err.Error(),
			"The state keeps the previous `rotation_trigger`, so the next apply asks for the rotation again."))

		return
	}

	updated.RotationTrigger = plan.RotationTrigger
	updated.TokenExpiry = types.StringValue(account.TokenExpiry.UTC().Format(time.RFC3339))
	r.keepToken(&updated, account, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &updated)...)
}

// accountChanged reports whether identity's record must change: anything but the
// rotation trigger and the timeouts.
func (r *serviceAccountResource) accountChanged(plan, state *serviceAccountModel) bool {
	return !plan.Name.Equal(state.Name) || !plan.Description.Equal(state.Description) ||
		!plan.Tags.Equal(state.Tags) || !plan.GroupIDs.Equal(state.GroupIDs)
}

// Delete deletes the account, which revokes its token, and forgets the token this run
// holds for it.
func (r *serviceAccountResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.Resource.Delete(ctx, req, resp); resp.Diagnostics.HasError() {
		return
	}

	var id types.String
	if resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...); !resp.Diagnostics.HasError() {
		r.Provider.Tokens.Forget(id.ValueString())
	}
}
