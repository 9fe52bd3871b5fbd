package sandbox

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Identity's OAuth2 endpoints, as identity v1.18.1 serves them (pkg/handler/handler.go,
// pkg/oauth2): the token endpoint, whose token-exchange grant mints passports, the key
// set that verifies them, and userinfo.
//
// A passport is what a downstream service gets when it exchanges the bearer token it
// was given (identity's pkg/middleware/openapi/remote: authorizeOAuth2). It is not a
// bearer credential: identity trusts no JWS bearer unless an OAuth2 provider's
// bearerTrust names its issuer (pkg/oauth2/trustlist.go), and its own issuer,
// "uni-identity", is no provider's, so a passport presented anywhere, to the token
// endpoint again, to identity's API or, through their exchange, to region's and
// compute's, is refused as an unknown token. The sandbox's resolve refuses it likewise.

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

	// systemSubject is the subject of the service principal's token. Compute
	// authenticates with a client certificate, and identity names a service by the
	// certificate's common name (TokenClientCredentials).
	systemSubject = "unikorn-compute"
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

	writeJSON(w, e.status, "no-cache", append(body, '\n'))
}

// registerOAuth2Routes adds identity's OAuth2 endpoints and its providers' operations.
func (s *Sandbox) registerOAuth2Routes() {
	s.core.HandleOpen("POST /oauth2/v2/token", s.issueToken)
	s.core.HandleOpen("GET /oauth2/v2/jwks", s.jwks)
	s.core.HandleOpen("GET /oauth2/v2/userinfo", s.userinfo)
	s.core.HandleOpen("POST /oauth2/v2/userinfo", s.userinfo)

	s.registerOAuth2ProviderRoutes()
}

// tokenRequestError is what identity's OpenAPI validation finds wrong with a token
// request before the handler sees it: the parameters come in a form body, which names
// the grant type.
func tokenRequestError(r *http.Request) error {
	contentType := r.Header.Get("Content-Type")
	if mediaType, _, err := mime.ParseMediaType(contentType); err != nil || mediaType != "application/x-www-form-urlencoded" {
		return errBadRequest("request body has an error: header Content-Type has unexpected value: %q", contentType)
	}

	if err := r.ParseForm(); err != nil {
		return errBadRequest("request body has an error: failed to decode request body: %v", err)
	}

	if !r.PostForm.Has("grant_type") {
		return errMissingMember("/grant_type")
	}

	return nil
}

// issueToken is identity's token endpoint (Authenticator.Token): the grant type picks the
// flow. The sandbox has no authorization flow and no client certificates, so it never
// issued a code or a refresh token and no service can prove itself: those grants fail
// as identity's do for a code, refresh token or certificate it cannot verify.
func (s *Sandbox) issueToken(w http.ResponseWriter, r *http.Request) {
	if err := tokenRequestError(r); err != nil {
		writeError(w, err)

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
		result, err = s.exchange(r)
	default:
		err = oauth2InvalidRequest("token grant type is not supported")
	}

	if err != nil {
		writeOAuth2Error(w, err)

		return
	}

	body, _ := json.Marshal(result)

	// See OIDC 1.0 section 3.1.3.3: a token response is never stored.
	writeJSON(w, http.StatusOK, "no-store", append(body, '\n'))
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
func (s *Sandbox) exchange(r *http.Request) (any, *oauth2Error) {
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

	s.current(func(at time.Time) {
		now = at

		caller, resolveErr := s.resolve(form.Get("subject_token"), now)
		if resolveErr != nil {
			err = oauth2AccessDenied("token validation failed")

			return
		}

		if err = s.world.authorizeScope(caller, organizationID, projectID); err != nil {
			return
		}

		claims = newPassportClaims(userinfoOf(caller), aud, organizationID, projectID, now, caller.Expiry)
	})

	if err != nil {
		return nil, err
	}

	passport, signErr := s.signing.sign(claims)
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
func (w *world) authorizeScope(caller *principal, organizationID, projectID string) *oauth2Error {
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

	if (!named && !broader) || w.findProject(organizationID, projectID) == nil {
		return oauth2Scope("project not in scope")
	}

	return nil
}

// userinfoClaims is identity `userinfo` as its GetUserinfo fills it.
type userinfoClaims struct {
	Sub           string     `json:"sub"`
	Email         string     `json:"email,omitempty"`
	EmailVerified *bool      `json:"email_verified,omitempty"`
	Authz         authClaims `json:"https://unikorn-cloud.org/authz"`
}

// authClaims is identity `authClaims`.
type authClaims struct {
	Acctype string   `json:"acctype"`
	OrgIDs  []string `json:"orgIds"`
}

// userinfo is what identity's introspection says of the token's bearer: a user is
// named by its subject, its email
// and belongs to the organizations RBAC finds it in; a service account by its ID, in
// its organization; the service principal by its certificate's name, in none.
func userinfoOf(p *core.Caller) userinfoClaims {
	switch {
	case p.ServiceAccountID != "":
		return userinfoClaims{Sub: p.ServiceAccountID, Authz: authClaims{Acctype: acctypeService, OrgIDs: []string{p.OrganizationID}}}
	case p.Service:
		return userinfoClaims{Sub: systemSubject, Authz: authClaims{Acctype: acctypeSystem, OrgIDs: []string{}}}
	}

	verified := true

	return userinfoClaims{
		Sub: p.Subject, Email: p.Subject, EmailVerified: &verified,
		Authz: authClaims{Acctype: acctypeUser, OrgIDs: p.Organizations()},
	}
}

// audience is a JWT aud claim: a single value is written as a string (RFC 7519 4.1.3).
type audience []string

func (a audience) MarshalJSON() ([]byte, error) {
	if len(a) == 1 {
		return json.Marshal(a[0])
	}

	return json.Marshal([]string(a))
}

// passportClaims are identity's PassportClaims as a passport from one of its own
// access tokens carries them.
type passportClaims struct {
	Issuer    string   `json:"iss"`
	Subject   string   `json:"sub"`
	Audience  audience `json:"aud,omitempty"`
	Expiry    int64    `json:"exp"`
	NotBefore int64    `json:"nbf"`
	IssuedAt  int64    `json:"iat"`
	ID        string   `json:"jti"`
	Type      string   `json:"typ"`
	Acctype   string   `json:"acctype"`
	Source    string   `json:"source"`
	Email     string   `json:"email,omitempty"`
	OrgIDs    []string `json:"org_ids"`
	OrgID     string   `json:"org_id,omitempty"`
	ProjectID string   `json:"project_id,omitempty"`
	SrcIss    string   `json:"src_iss"`
}

// newPassportClaims are a passport's claims: it lasts passportTTL, cut short by the
// expiry of the token it was exchanged for (passportExpiry).
func newPassportClaims(info userinfoClaims, aud audience, organizationID, projectID string, now, sourceExpiry time.Time) *passportClaims {
	expiry := now.Add(passportTTL)
	if !sourceExpiry.IsZero() && sourceExpiry.Before(expiry) {
		expiry = sourceExpiry
	}

	return &passportClaims{
		Issuer: passportIssuer, Subject: info.Sub, Audience: aud,
		Expiry: expiry.Unix(), NotBefore: now.Unix(), IssuedAt: now.Unix(), ID: uuid.NewString(),
		Type: "passport", Acctype: info.Authz.Acctype, Source: passportSource, Email: info.Email,
		OrgIDs: info.Authz.OrgIDs, OrgID: organizationID, ProjectID: projectID, SrcIss: passportSource,
	}
}

// signingKey is identity's passport signing key: ECDSA on P-521, for ES512 (RFC 7518
// 3.4). Identity keeps its keys in a SigningKey resource and rotates them; the
// sandbox draws one when it starts, so a passport from before a restart no longer
// verifies, as one signed with a rotated-out key would not.
type signingKey struct {
	private *ecdsa.PrivateKey
	// jwk is the public key as the key set publishes it; kid names it.
	jwk map[string]string
	kid string
}

// es512Size is the size of each of a P-521 signature's halves and of a coordinate.
const es512Size = 66

func newSigningKey() (*signingKey, error) {
	private, err := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("drawing the passport signing key: %w", err)
	}

	public, err := private.PublicKey.ECDH()
	if err != nil {
		return nil, fmt.Errorf("encoding the passport signing key: %w", err)
	}

	point := public.Bytes() // 0x04, then X and Y
	x := base64.RawURLEncoding.EncodeToString(point[1 : 1+es512Size])
	y := base64.RawURLEncoding.EncodeToString(point[1+es512Size:])

	// The key ID is the key's RFC 7638 thumbprint: members in lexical order, no spaces.
	thumbprint := sha256.Sum256(fmt.Appendf(nil, `{"crv":"P-521","kty":"EC","x":%q,"y":%q}`, x, y))
	kid := base64.RawURLEncoding.EncodeToString(thumbprint[:])

	return &signingKey{
		private: private,
		kid:     kid,
		jwk:     map[string]string{"use": "sig", "kty": "EC", "kid": kid, "crv": "P-521", "alg": "ES512", "x": x, "y": y},
	}, nil
}

// sign makes a compact JWS of claims (RFC 7515), its header naming the key.
func (k *signingKey) sign(claims any) (string, error) {
	header, err := json.Marshal(map[string]string{"alg": "ES512", "kid": k.kid})
	if err != nil {
		return "", err
	}

	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}

	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(payload)
	digest := sha512.Sum512([]byte(input))

	r, s, err := ecdsa.Sign(rand.Reader, k.private, digest[:])
	if err != nil {
		return "", err
	}

	signature := make([]byte, 2*es512Size)
	r.FillBytes(signature[:es512Size])
	s.FillBytes(signature[es512Size:])

	return input + "." + base64.RawURLEncoding.EncodeToString(signature), nil
}

// jwks is identity's key set: the public keys its passports verify against.
func (s *Sandbox) jwks(w http.ResponseWriter, _ *http.Request) {
	body, _ := json.Marshal(map[string]any{"keys": []map[string]string{s.signing.jwk}})

	writeJSON(w, http.StatusOK, "no-cache", append(body, '\n'))
}

// userinfo is identity's token introspection. GET takes the token from the
// Authorization header only, and answers a malformed header as a bad request; POST
// also takes it from the form's access_token, and answers every failure 401.
func (s *Sandbox) userinfo(w http.ResponseWriter, r *http.Request) {
	token, err := userinfoToken(r)
	if err != nil {
		var bad *apiError
		if errors.As(err, &bad) {
			writeError(w, err)
		} else {
			writeUnauthorized(w, r, err)
		}

		return
	}

	var (
		info     userinfoClaims
		resolved error
	)

	s.current(func(now time.Time) {
		var caller *principal
		if caller, resolved = s.resolve(token, now); resolved == nil {
			info = userinfoOf(caller)
		}
	})

	if resolved != nil {
		if r.Method == http.MethodPost && r.Header.Get("Authorization") == "" {
			resolved = errors.New("access token is invalid")
		}

		writeUnauthorized(w, r, resolved)

		return
	}

	body, _ := json.Marshal(info)

	writeJSON(w, http.StatusOK, "no-cache", append(body, '\n'))
}

// userinfoToken is the token userinfo introspects, or why there is none: an *apiError
// for a bad request, any other error for a 401.
func userinfoToken(r *http.Request) (string, error) {
	header := r.Header.Get("Authorization")

	if header == "" {
		if r.Method == http.MethodGet {
			return "", errors.New("authorization header not set")
		}

		if err := r.ParseForm(); err != nil {
			return "", errors.New("unable to parse form data")
		}

		if token := r.Form.Get("access_token"); token != "" {
			return token, nil
		}

		return "", errors.New("access token is invalid")
	}

	parts := strings.Split(header, " ")

	switch {
	case len(parts) != 2 && r.Method == http.MethodGet:
		return "", errBadRequest("authorization header malformed")
	case len(parts) != 2:
		return "", errors.New("authorization header malformed")
	case !strings.EqualFold(parts[0], "bearer") && r.Method == http.MethodGet:
		return "", errBadRequest("authorization scheme not allowed")
	case !strings.EqualFold(parts[0], "bearer"):
		return "", errors.New("authorization scheme not allowed")
	}

	return parts[1], nil
}
