// Package oauth2 is identity's OAuth2 endpoints, as identity v1.18.1 serves them
// (pkg/handler/handler.go, pkg/oauth2): the token endpoint, whose token-exchange grant
// mints passports, the key set that verifies them, and userinfo.
//
// A passport is what a downstream service gets when it exchanges the bearer token it
// was given (identity's pkg/middleware/openapi/remote: authorizeOAuth2). It is not a
// bearer credential: identity trusts no JWS bearer unless an OAuth2 provider's
// bearerTrust names its issuer (pkg/oauth2/trustlist.go), and its own issuer,
// "uni-identity", is no provider's, so a passport presented anywhere, to the token
// endpoint again, to identity's API or, through their exchange, to region's and
// compute's, is refused as an unknown token. The sandbox's authenticators refuse it
// likewise.
package oauth2

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// OAuth2 token endpoint vocabulary (RFC 6749, RFC 8693) and identity's passport.
const (
	grantAuthorizationCode = "authorization_code"
	grantRefreshToken      = "refresh_token"
	grantClientCredentials = "client_credentials"
	grantTokenExchange     = "urn:ietf:params:oauth:grant-type:token-exchange"

	accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
	passportType    = "urn:nscale:params:oauth:token-type:passport"

	// passportTTL is identity's PassportTTL: a passport lives a minute, never longer
	// than the token it was exchanged for.
	passportTTL = 60 * time.Second
	// passportIssuer and passportSource are the iss and source (and src_iss) claims
	// of a passport minted from one of identity's own access tokens.
	passportIssuer = "uni-identity"
	passportSource = "uni"
)

// Account types of identity's authClaims.
const (
	acctypeUser    = "user"
	acctypeService = "service"
	acctypeSystem  = "system"
)

// Identity's OAuth2 error codes (identity `oauth2Error`) beyond core's.
const (
	oauth2InvalidScope = "invalid_scope"
	oauth2InvalidGrant = "invalid_grant"
)

// oauth2Error is an error of the token endpoint, which identity writes with its OAuth2
// error body, {error, error_description} and nothing else (pkg/oauth2/errors).
type oauth2Error struct {
	status      int
	code        string
	description string
}

func (e *oauth2Error) Error() string { return e.code + ": " + e.description }

func oauth2InvalidRequest(description string) *oauth2Error {
	return &oauth2Error{http.StatusBadRequest, unikorn.ErrorInvalidRequest, description}
}

func oauth2AccessDenied(description string) *oauth2Error {
	return &oauth2Error{http.StatusUnauthorized, unikorn.ErrorAccessDenied, description}
}

func oauth2Scope(description string) *oauth2Error {
	return &oauth2Error{http.StatusBadRequest, oauth2InvalidScope, description}
}

func writeOAuth2Error(w http.ResponseWriter, e *oauth2Error) {
	body, _ := json.Marshal(map[string]string{"error": e.code, "error_description": e.description})

	core.WriteJSON(w, e.status, "no-cache", append(body, '\n'))
}

// Family is identity's OAuth2 endpoints.
var Family = core.Family{Name: "oauth2", Register: register}

// handlers serve identity's OAuth2 endpoints, signing passports with the key the
// sandbox drew when it started.
type handlers struct {
	s       *core.Server
	signing *signingKey
}

func register(s *core.Server) error {
	signing, err := newSigningKey()
	if err != nil {
		return err
	}

	h := &handlers{s: s, signing: signing}
	s.HandleOpen("POST /oauth2/v2/token", h.issueToken)
	s.HandleOpen("GET /oauth2/v2/jwks", h.jwks)
	s.HandleOpen("GET /oauth2/v2/userinfo", h.userinfo)
	s.HandleOpen("POST /oauth2/v2/userinfo", h.userinfo)

	return nil
}

// tokenRequestError is what identity's OpenAPI validation finds wrong with a token
// request before the handler sees it: the parameters come in a form body, which names
// the grant type.
func tokenRequestError(r *http.Request) error {
	contentType := r.Header.Get("Content-Type")
	if mediaType, _, err := mime.ParseMediaType(contentType); err != nil || mediaType != "application/x-www-form-urlencoded" {
		return core.BadRequest("request body has an error: header Content-Type has unexpected value: %q", contentType)
	}

	if err := r.ParseForm(); err != nil {
		return core.BadRequest("request body has an error: failed to decode request body: %v", err)
	}

	if !r.PostForm.Has("grant_type") {
		return core.MissingMember("/grant_type")
	}

	return nil
}

// issueToken is identity's token endpoint (Authenticator.Token): the grant type picks the
// flow. The sandbox has no authorization flow and no client certificates, so it never
// issued a code or a refresh token and no service can prove itself: those grants fail
// as identity's do for a code, refresh token or certificate it cannot verify.
func (h *handlers) issueToken(w http.ResponseWriter, r *http.Request) {
	if err := tokenRequestError(r); err != nil {
		core.WriteError(w, err)

		return
	}

	var (
		result any
		err    *oauth2Error
	)

	switch r.Form.Get("grant_type") {
	case grantAuthorizationCode:
		// tokenValidate, then the code fails to decrypt. The parameters are checked
		// in reverse, so that the one reported is the first identity checks.
		err = oauth2InvalidRequest("failed to parse code: not an authorization code this service issued")

		for _, parameter := range []string{"code", "redirect_uri"} {
			if !r.Form.Has(parameter) {
				err = oauth2InvalidRequest(parameter + " must be specified")
			}
		}
	case grantRefreshToken:
		err = &oauth2Error{http.StatusBadRequest, oauth2InvalidGrant, "refresh token is invalid or has expired"}
	case grantClientCredentials:
		// TokenClientCredentials: the ingress passes the verified client certificate
		// in a header; the sandbox, plain HTTP, has none to pass.
		err = oauth2InvalidRequest("mTLS client verification failed")
	case grantTokenExchange:
		result, err = h.exchange(r)
	default:
		err = oauth2InvalidRequest("token grant type is not supported")
	}

	if err != nil {
		writeOAuth2Error(w, err)

		return
	}

	body, _ := json.Marshal(result)

	// See OIDC 1.0 section 3.1.3.3: a token response is never stored.
	core.WriteJSON(w, http.StatusOK, "no-store", append(body, '\n'))
}

// exchangeParameters are the token-exchange parameters, which must come in the body.
var exchangeParameters = []string{
	"grant_type", "subject_token", "subject_token_type", "requested_token_type", "audience",
	"resource", "x_organization_id", "x_project_id", "actor_token", "actor_token_type",
}

// tokenResponse is identity `token`.
type tokenResponse struct {
	TokenType       string `json:"token_type"`
	AccessToken     string `json:"access_token"`
	ExpiresIn       int    `json:"expires_in"`
	IssuedTokenType string `json:"issued_token_type,omitempty"`
}

// exchangeRequest checks an RFC 8693 request as identity's parseTokenExchangeRequest
// and validateTokenExchangeRequest do, in their order.
func exchangeRequest(r *http.Request) (url.Values, *oauth2Error) {
	query := r.URL.Query()
	for _, name := range exchangeParameters {
		if query.Has(name) {
			return nil, oauth2InvalidRequest(name + " must be supplied in the form body")
		}
	}

	form := r.PostForm

	switch {
	case form.Get("actor_token") != "" || form.Get("actor_token_type") != "":
		return nil, oauth2InvalidRequest("actor_token is not supported")
	case form.Get("subject_token") == "":
		return nil, oauth2InvalidRequest("subject_token must be specified")
	case form.Get("subject_token_type") == "":
		return nil, oauth2InvalidRequest("subject_token_type must be specified")
	case form.Get("subject_token_type") != accessTokenType:
		return nil, oauth2InvalidRequest("subject_token_type is not supported")
	case form.Get("x_project_id") != "" && form.Get("x_organization_id") == "":
		return nil, oauth2InvalidRequest("x_organization_id must be specified when x_project_id is specified")
	}

	// An access token asked for leaves the type to the server, which issues a passport.
	if requested := form.Get("requested_token_type"); requested != "" && requested != passportType && requested != accessTokenType {
		return nil, oauth2InvalidRequest("requested_token_type is not supported")
	}

	return form, nil
}

// requestedAudience is the passport's aud: the resource, an absolute URI without a
// fragment, then the audience, each once.
func requestedAudience(form url.Values) (audience, *oauth2Error) {
	var result audience

	if resource := form.Get("resource"); resource != "" {
		u, err := url.Parse(resource)
		if err != nil || !u.IsAbs() || u.Fragment != "" {
			return nil, oauth2InvalidRequest("resource must be an absolute URI without a fragment")
		}

		result = append(result, resource)
	}

	if name := form.Get("audience"); name != "" && !slices.Contains(result, name) {
		result = append(result, name)
	}

	return result, nil
}

// exchange is identity's ExchangePassport: it checks the request, authenticates the
// subject token, authorizes the organization and project asked for and mints a passport.
func (h *handlers) exchange(r *http.Request) (any, *oauth2Error) {
	form, err := exchangeRequest(r)
	if err != nil {
		return nil, err
	}

	aud, err := requestedAudience(form)
	if err != nil {
		return nil, err
	}

	organizationID, projectID := form.Get("x_organization_id"), form.Get("x_project_id")

	var (
		claims *passportClaims
		now    time.Time
	)

	h.s.Current(func(st *core.Store, at time.Time) {
		now = at

		caller, resolveErr := core.Resolve(h.s, st, form.Get("subject_token"), now)
		if resolveErr != nil {
			err = oauth2AccessDenied("token validation failed")

			return
		}

		if err = authorizeScope(st, caller, organizationID, projectID); err != nil {
			return
		}

		claims = newPassportClaims(userinfoOf(caller), aud, organizationID, projectID, now, caller.Expiry)
	})

	if err != nil {
		return nil, err
	}

	passport, signErr := h.signing.sign(claims)
	if signErr != nil {
		return nil, &oauth2Error{http.StatusInternalServerError, unikorn.ErrorServerError, "an internal error has occurred, please contact support"}
	}

	return tokenResponse{
		TokenType:       "Bearer",
		AccessToken:     passport,
		ExpiresIn:       int(claims.Expiry - claims.IssuedAt),
		IssuedTokenType: passportType,
	}, nil
}

// authorizeScope allows the organization and project a passport is asked for, as
// validateOrganizationScope, rbac.GetACL and validateProjectScope do. A service
// account belongs to its own organization alone; a user or the service principal to
// those RBAC finds it in. A project is allowed where the caller's ACL names it, or a
// global or organization grant covers it, and only if the organization has it.
func authorizeScope(st *core.Store, caller *core.Caller, organizationID, projectID string) *oauth2Error {
	if organizationID == "" {
		return nil
	}

	if caller.ServiceAccountID != "" && caller.OrganizationID != organizationID {
		return oauth2Scope("organization not in scope")
	}

	if !caller.IsMember(organizationID) {
		return oauth2Scope("organization not in scope")
	}

	if projectID == "" {
		return nil
	}

	acl := caller.ACL
	organization := acl.Organizations[organizationID]

	named := organization != nil && organization.Projects[projectID] != nil
	broader := len(acl.Global) > 0 || (organization != nil && len(organization.Endpoints) > 0)

	if _, ok := core.FindProject(st, organizationID, projectID); (!named && !broader) || !ok {
		return oauth2Scope("project not in scope")
	}

	return nil
}
