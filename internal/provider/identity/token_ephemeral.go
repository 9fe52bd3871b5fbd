package identity

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
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
	return &tokenEphemeral{}
}

type tokenEphemeral struct {
	configured
}

type tokenModel struct {
	OrganizationID   types.String `tfsdk:"organization_id"`
	ServiceAccountID types.String `tfsdk:"service_account_id"`
	Rotate           types.Bool   `tfsdk:"rotate"`
	Token            types.String `tfsdk:"token"`
	Expiry           types.String `tfsdk:"expiry"`
}

func (e *tokenEphemeral) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = TokenTypeName
}

func (e *tokenEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.configure(req.ProviderData, &resp.Diagnostics)
}

func (e *tokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A service account's access token, as an ephemeral value (Terraform 1.10+): give it to " +
			"another provider block's `token`, or to a write-only attribute of a secret store. It is never " +
			"saved in the plan or the state.\n\n" +
			"Identity answers a token only to the create and to each rotation, and the provider keeps it in " +
			"memory only, for the run that received it. So: in the run that creates the account (through the same " +
			"provider block), this hands on the token of the create. In any other run it has no token to hand on, " +
			"and fails, unless `rotate = true`: then opening it rotates the account, issuing a new token and " +
			"revoking the old one. Terraform opens ephemeral resources in every plan and apply, so with " +
			"`rotate = true` every run that opens it, a plan included, rotates once; set it only where a fresh " +
			"token per run is what you want (a pipeline that uses the token only within the run), and keep it " +
			"`false` where the token is stored elsewhere after the first run.",
		Attributes: map[string]schema.Attribute{
			"organization_id": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Organization of the account; defaults to the provider's `organization_id`.",
				Validators: []validator.String{validators.UUID()},
			},
			"service_account_id": schema.StringAttribute{
				Required: true, MarkdownDescription: "ID of the service account (`unikorn_service_account.<name>.id`).",
				Validators: []validator.String{validators.UUID()},
			},
			"rotate": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether opening it may rotate the account when this run holds no token of it. " +
					"Default `false`.",
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

	held, ok := heldTokens.Load(id)
	if !ok {
		if !config.Rotate.ValueBool() {
			resp.Diagnostics.Append(diagnostic.AttributeError(pathServiceAccountID, "No token of the service account in this run",
				"Identity shows a service account's token only once, to the create or rotation that issued it, and this "+
					"run did neither for service account "+id+"; the provider keeps tokens nowhere between runs.",
				"Store the token where the next runs can read it (a write-only attribute of a secret store, in the run "+
					"that creates the account), or set `rotate = true` to issue a new token, revoking the old one, "+
					"in every run that opens this."))

			return
		}

		organizationID := e.provider.Organization(config.OrganizationID, pathOrganizationID, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}

		account, err := e.provider.Identity.RotateServiceAccount(ctx, organizationID, id)
		if err != nil {
			resp.Diagnostics.Append(failed("rotate", "service account", err))

			return
		}

		holdToken(account)

		if held, ok = heldTokens.Load(id); !ok {
			resp.Diagnostics.Append(diagnostic.Error("Rotation answered no token",
				"Identity answered the rotation of service account "+id+" without a token.", ""))

			return
		}
	}

	token, _ := held.(heldToken)
	config.Token = types.StringValue(token.token)
	config.Expiry = types.StringValue(token.expiry.UTC().Format(time.RFC3339))
	resp.Diagnostics.Append(resp.Result.Set(ctx, &config)...)
}
