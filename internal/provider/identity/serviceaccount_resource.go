package identity

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/deadline"
)

// ServiceAccountTypeName is the service account resource's Terraform type.
const ServiceAccountTypeName = "unikorn_service_account"

var (
	_ resource.ResourceWithConfigure   = (*serviceAccountResource)(nil)
	_ resource.ResourceWithImportState = (*serviceAccountResource)(nil)
	_ resource.ResourceWithIdentity    = (*serviceAccountResource)(nil)
)

// heldTokens are the access tokens this provider process received, by service
// account ID: identity answers one only to the create or the rotation that issued it,
// and the provider keeps it nowhere else, so only this run's ephemeral resources can
// hand it on.
var heldTokens sync.Map

type heldToken struct {
	token  string
	expiry time.Time
}

func holdToken(account *identity.ServiceAccount) {
	if account != nil && account.Status.AccessToken != "" {
		heldTokens.Store(account.Metadata.ID, heldToken{token: account.Status.AccessToken, expiry: account.Status.Expiry})
	}
}

// NewServiceAccountResource returns the unikorn_service_account resource.
func NewServiceAccountResource() resource.Resource {
	return &serviceAccountResource{}
}

type serviceAccountResource struct {
	configured
	identified
}

type serviceAccountModel struct {
	commonModel
	GroupIDs    types.Set    `tfsdk:"group_ids"`
	TokenExpiry types.String `tfsdk:"token_expiry"`
	timed
}

func (r *serviceAccountResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = ServiceAccountTypeName
}

func (r *serviceAccountResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.configure(req.ProviderData, &resp.Diagnostics)
}

func (r *serviceAccountResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := commonAttributes("service account")
	attributes["group_ids"] = schema.SetAttribute{
		Required: true, ElementType: types.StringType,
		MarkdownDescription: "Groups the service account belongs to; its token has the rights their roles give. " +
			"Identity keeps the membership on the groups (`service_account_ids`) and ignores IDs that name no " +
			"group, which the provider reports as an error.",
		Validators: []validator.Set{uuids()},
	}
	attributes["token_expiry"] = schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "When the account's current token expires, RFC 3339 (identity's default lifetime " +
			"is 90 days). A rotation moves it on the next refresh.",
	}
	attributes["timeouts"] = timeoutsAttribute(ctx)

	resp.Schema = schema.Schema{
		MarkdownDescription: "A service account: a long-lived access token for automation, with the rights of its " +
			"groups. Identity shows the token once, in the answer to the create (and to each rotation); this " +
			"resource keeps it **nowhere**, not in the state, not in private state. The same provider block's " +
			"`unikorn_service_account_token` ephemeral resource hands it on within the run that created the " +
			"account, and issues a new one (rotating, which revokes the old) only where its `rotate` says so. " +
			"Identity has no read of one service account, so it is read from the organization's list.",
		Attributes: attributes,
	}
}

func (r *serviceAccountResource) write(ctx context.Context, plan *serviceAccountModel, diags *diag.Diagnostics) identity.ServiceAccountWrite {
	return identity.ServiceAccountWrite{
		Metadata: plan.writeMetadata(ctx, diags),
		Spec:     identity.ServiceAccountSpec{GroupIDs: stringsOf(ctx, plan.GroupIDs, diags)},
	}
}

func (r *serviceAccountResource) set(ctx context.Context, m *serviceAccountModel, account *identity.ServiceAccount, diags *diag.Diagnostics) {
	md := account.Metadata
	m.setCommon(ctx, md.ID, md.OrganizationID, md.Name, md.Description, md.Tags, diags)
	m.GroupIDs = setOf(ctx, account.Spec.GroupIDs, diags)
	m.TokenExpiry = types.StringValue(account.Status.Expiry.UTC().Format(time.RFC3339))
}

func (r *serviceAccountResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan serviceAccountModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Create, memberTimeout, &resp.Diagnostics)
	defer cancel()

	organizationID := r.organization(plan.OrganizationID, &resp.Diagnostics)
	write := r.write(ctx, &plan, &resp.Diagnostics)

	if resp.Diagnostics.HasError() {
		return
	}

	account, err := r.provider.Identity.CreateServiceAccount(ctx, organizationID, write)
	if account != nil {
		holdToken(account)
		r.set(ctx, &plan, account, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		saveIdentity(ctx, resp.Identity, &plan.commonModel, &resp.Diagnostics)
	}

	var adopted *identity.AdoptedError

	switch {
	case errors.As(err, &adopted):
		// The account exists and is kept; only its token is lost.
		resp.Diagnostics.AddWarning("Service account created without its token", err.Error()+"\n\n"+
			"Set `rotate = true` on a `unikorn_service_account_token` of this account for one run to issue a new token.")
	case err != nil:
		resp.Diagnostics.Append(failed("create", "service account", err))
	}
}

func (r *serviceAccountResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state serviceAccountModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}

	organizationID := r.organization(state.OrganizationID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	account, err := r.provider.Identity.ReadServiceAccount(ctx, organizationID, state.ID.ValueString())
	if err != nil {
		resp.Diagnostics.Append(failed("read", "service account", err))

		return
	}

	if account == nil {
		resp.State.RemoveResource(ctx)

		return
	}

	r.set(ctx, &state, account, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	saveIdentity(ctx, resp.Identity, &state.commonModel, &resp.Diagnostics)
}

func (r *serviceAccountResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan serviceAccountModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}

	ctx, cancel := deadline.Within(ctx, plan.Timeouts.Update, memberTimeout, &resp.Diagnostics)
	defer cancel()

	write := r.write(ctx, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	account, err := r.provider.Identity.UpdateServiceAccount(ctx, plan.OrganizationID.ValueString(), plan.ID.ValueString(), write)
	if account != nil {
		r.set(ctx, &plan, account, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		saveIdentity(ctx, resp.Identity, &plan.commonModel, &resp.Diagnostics)
	}

	if err != nil {
		resp.Diagnostics.Append(failed("update", "service account", err))
	}
}

func (r *serviceAccountResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state serviceAccountModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}

	ctx, cancel := deadline.Within(ctx, state.Timeouts.Delete, memberTimeout, &resp.Diagnostics)
	defer cancel()

	if err := r.provider.Identity.DeleteServiceAccount(ctx, state.OrganizationID.ValueString(), state.ID.ValueString()); err != nil {
		resp.Diagnostics.Append(failed("delete", "service account", err))
	}

	heldTokens.Delete(state.ID.ValueString())
}
