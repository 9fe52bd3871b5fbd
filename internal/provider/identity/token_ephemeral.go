package identity

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// TokenTypeName is the service account token's ephemeral resource type.
const TokenTypeName = "unikorn_service_account_token"

var (
	_ ephemeral.EphemeralResource              = (*tokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*tokenEphemeral)(nil)
)

// NewTokenEphemeralResource returns the unikorn_service_account_token ephemeral resource.
func NewTokenEphemeralResource() ephemeral.EphemeralResource {
	return &tokenEphemeral{family.Ephemeral{DataSource: family.DataSource{Name: TokenTypeName}}}
}

// tokenEphemeral hands a service account's token on, opening the sealed token the
// resource keeps, or taking the token this provider instance received in this run.
// It never calls Unikorn, and so never rotates.
type tokenEphemeral struct {
	family.Ephemeral
}

type tokenModel struct {
	ServiceAccountID types.String `tfsdk:"service_account_id"`
	SealedToken      types.String `tfsdk:"sealed_token"`
	Token            types.String `tfsdk:"token"`
	Expiry           types.String `tfsdk:"expiry"`
}

func (e *tokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A service account's access token, as an ephemeral value (Terraform 1.10+, OpenTofu " +
			"1.11+): give it to another provider block's `token`, or to a write-only attribute of a secret store. " +
			"It is never saved in the plan or the state.\n\n" +
			"With the provider's `token_seal_key`, it opens the account's `sealed_token`, in every run, with " +
			"nothing but the key: no request is made, and nothing is rotated. Without a seal key (or for an " +
			"account whose token was never sealed) it can hand on only the token that this provider block " +
			"received in this run, by creating the account or rotating it (`rotation_trigger`), and fails " +
			"otherwise, saying so.",
		Attributes: map[string]schema.Attribute{
			"service_account_id": schema.StringAttribute{
				Required: true, MarkdownDescription: "ID of the service account (`unikorn_service_account.<name>.id`).",
				Validators: []validator.String{validators.UUID()},
			},
			"sealed_token": schema.StringAttribute{
				Optional: true, Sensitive: true,
				MarkdownDescription: "The account's sealed token (`unikorn_service_account.<name>.sealed_token`), " +
					"which the provider's `token_seal_key` opens. Null or unset: the token this run received.",
			},
			"token": schema.StringAttribute{
				Computed: true, Sensitive: true, MarkdownDescription: "The access token: a bearer token for the provider's `token`.",
			},
			"expiry": schema.StringAttribute{
				Computed: true, MarkdownDescription: "When the token expires, RFC 3339.",
			},
		},
	}
}

func (e *tokenEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var config tokenModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}

	id := config.ServiceAccountID.ValueString()

	var (
		token seal.Token
		ok    bool
	)

	if sealed := config.SealedToken.ValueString(); sealed != "" {
		token, ok = e.open(id, sealed, resp)
	} else {
		token, ok = e.held(id, resp)
	}

	if !ok {
		if !resp.Diagnostics.HasError() {
			// What opens it is not known yet: it is, when Terraform applies.
			config.Token, config.Expiry = types.StringUnknown(), types.StringUnknown()
			resp.Diagnostics.Append(resp.Result.Set(ctx, &config)...)
		}

		return
	}

	config.Token = types.StringValue(token.Token)
	config.Expiry = types.StringValue(token.Expiry.UTC().Format(time.RFC3339))
	resp.Diagnostics.Append(resp.Result.Set(ctx, &config)...)
}

// open opens a sealed token with the provider's key. Without a diagnostic, a false ok
// means the key is not known yet.
func (e *tokenEphemeral) open(id, sealed string, resp *ephemeral.OpenResponse) (seal.Token, bool) {
	if e.Provider == nil {
		return seal.Token{}, false
	}

	key := e.Provider.SealKey
	if key == nil {
		if slices.Contains(e.Provider.Pending, "token_seal_key") {
			return seal.Token{}, false
		}

		resp.Diagnostics.Append(diagnostic.AttributeError(pathSealedToken, "No key to open the sealed token",
			fmt.Sprintf("The token of service account %s is sealed, and the provider has no `token_seal_key` to open it.", id),
			"Give the provider block the key it was sealed with (`token_seal_key`, or the UNIKORN_TOKEN_SEAL_KEY "+
				"environment variable), or change `rotation_trigger` on the account to issue a new token."))

		return seal.Token{}, false
	}

	token, err := seal.Open(key, id, sealed)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.SealedToken(pathSealedToken, id, err))

		return seal.Token{}, false
	}

	return token, true
}

// held returns the token this provider instance received for the account in this run.
func (e *tokenEphemeral) held(id string, resp *ephemeral.OpenResponse) (seal.Token, bool) {
	if e.Provider == nil {
		return seal.Token{}, false
	}

	token, ok := e.Provider.Tokens.Held(id)
	if !ok && e.Provider.SealKey != nil {
		// The key is there; what is missing is a token sealed with it.
		resp.Diagnostics.Append(diagnostic.AttributeError(pathSealedToken, "No sealed token of the service account",
			fmt.Sprintf("No sealed token was given for service account %s, and this provider block did not create or "+
				"rotate it in this run. The account's `sealed_token` is null when it was imported, created before the "+
				"provider had a `token_seal_key`, or its create's answer was lost: identity shows a token only to the "+
				"create or rotation that issued it, so there was none to seal.", id),
			"Change `rotation_trigger` on the account to issue a new token (the old one is revoked), which is sealed "+
				"with this provider's `token_seal_key`, and set `sealed_token = unikorn_service_account.<name>.sealed_token` here."))

		return seal.Token{}, false
	}

	if !ok {
		resp.Diagnostics.Append(diagnostic.AttributeError(pathServiceAccountID, "No token of the service account to hand on",
			fmt.Sprintf("No sealed token was given for service account %s, and this provider block did not create or "+
				"rotate it in this run. Identity shows a token only to the create or rotation that issued it, and "+
				"without a `token_seal_key` the provider keeps it nowhere between runs.", id),
			"Give the provider block a `token_seal_key`, change `rotation_trigger` on the account to issue a token "+
				"sealed with it, and set `sealed_token = unikorn_service_account.<name>.sealed_token` here."))

		return seal.Token{}, false
	}

	return seal.Token{Token: token.Token, Expiry: token.Expiry}, true
}
