package sandbox

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// exchange posts a token-exchange request for token with the extra form parameters.
func (h *harness) exchange(token string, extra url.Values) *response {
	h.t.Helper()

	form := url.Values{"grant_type": {grantTokenExchange}, "subject_token_type": {accessTokenType}}
	if token != "" {
		form.Set("subject_token", token)
	}

	for name, values := range extra {
		form[name] = values
	}

	return h.postForm("/oauth2/v2/token", form)
}

func (h *harness) postForm(path string, form url.Values) *response {
	h.t.Helper()

	resp, err := http.PostForm(h.url+path, form)
	require.NoError(h.t, err)

	defer resp.Body.Close()

	var body json.RawMessage

	require.NoError(h.t, json.NewDecoder(resp.Body).Decode(&body))

	return &response{t: h.t, status: resp.StatusCode, header: resp.Header, body: body}
}

// verifyPassport checks a passport's ES512 signature against the published key set, as
// a downstream service would, and returns its claims.
func (h *harness) verifyPassport(passport string) map[string]any {
	h.t.Helper()

	var keys struct {
		Keys []map[string]string `json:"keys"`
	}

	h.callAs("", http.MethodGet, "/oauth2/v2/jwks", nil).expect(http.StatusOK, &keys)
	require.Len(h.t, keys.Keys, 1)

	parts := strings.Split(passport, ".")
	require.Len(h.t, parts, 3)

	var header map[string]string

	require.NoError(h.t, json.Unmarshal(decodeSegment(h.t, parts[0]), &header))
	assert.Equal(h.t, "ES512", header["alg"])

	key := keys.Keys[0]
	require.Equal(h.t, key["kid"], header["kid"], "the passport names the published key")
	assert.Equal(h.t, map[string]string{"use": "sig", "kty": "EC", "crv": "P-521", "alg": "ES512"},
		map[string]string{"use": key["use"], "kty": key["kty"], "crv": key["crv"], "alg": key["alg"]})

	public := &ecdsa.PublicKey{
		Curve: elliptic.P521(),
		X:     new(big.Int).SetBytes(decodeSegment(h.t, key["x"])),
		Y:     new(big.Int).SetBytes(decodeSegment(h.t, key["y"])),
	}

	signature := decodeSegment(h.t, parts[2])
	require.Len(h.t, signature, 2*es512Size)

	digest := sha512.Sum512([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(signature[:es512Size]), new(big.Int).SetBytes(signature[es512Size:])
	require.True(h.t, ecdsa.Verify(public, digest[:], r, s), "the signature verifies against the key set")

	var claims map[string]any

	require.NoError(h.t, json.Unmarshal(decodeSegment(h.t, parts[1]), &claims))

	return claims
}

func decodeSegment(t *testing.T, segment string) []byte {
	t.Helper()

	data, err := base64.RawURLEncoding.DecodeString(segment)
	require.NoError(t, err)

	return data
}

func TestTokenExchangeMintsASignedPassport(t *testing.T) {
	h := newHarness(t)

	var token struct {
		TokenType       string `json:"token_type"`
		AccessToken     string `json:"access_token"`
		ExpiresIn       int    `json:"expires_in"`
		IssuedTokenType string `json:"issued_token_type"`
	}

	h.exchange(DefaultToken, url.Values{
		"x_organization_id": {OrganizationID}, "x_project_id": {ProjectID},
		"resource": {"https://region.example.com/"}, "audience": {"uni-region"},
	}).expect(http.StatusOK, &token)

	assert.Equal(t, "Bearer", token.TokenType)
	assert.Equal(t, passportType, token.IssuedTokenType)
	assert.Equal(t, 60, token.ExpiresIn)

	claims := h.verifyPassport(token.AccessToken)
	now := float64(h.clock.Now().Unix())

	assert.Equal(t, map[string]any{
		"iss": "uni-identity", "sub": UserSubject, "aud": []any{"https://region.example.com/", "uni-region"},
		"iat": now, "nbf": now, "exp": now + 60, "jti": claims["jti"],
		"typ": "passport", "acctype": "user", "source": "uni", "src_iss": "uni", "email": UserSubject,
		"org_ids": []any{OrganizationID}, "org_id": OrganizationID, "project_id": ProjectID,
	}, claims)

	// Every exchange mints a passport of its own.
	h.exchange(DefaultToken, nil).expect(http.StatusOK, &token)
	assert.NotEqual(t, claims["jti"], h.verifyPassport(token.AccessToken)["jti"])
}

func TestAPassportNeverOutlivesItsSourceToken(t *testing.T) {
	h := newHarness(t)

	var account unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPost, organizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{}},
	}).expect(http.StatusCreated, &account)

	// Thirty seconds before the account's token expires, its passport lasts thirty.
	h.clock.Advance(account.Status.Expiry.Sub(h.clock.Now()) - 30*time.Second)

	var token struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}

	h.exchange(account.Status.AccessToken, url.Values{"x_organization_id": {OrganizationID}}).expect(http.StatusOK, &token)
	assert.Equal(t, 30, token.ExpiresIn)

	claims := h.verifyPassport(token.AccessToken)
	assert.Equal(t, "service", claims["acctype"])
	assert.Equal(t, account.Metadata.ID, claims["sub"])
	assert.Equal(t, []any{OrganizationID}, claims["org_ids"])
}

func TestTokenExchangeRefusals(t *testing.T) {
	h := newHarness(t)

	for _, c := range []struct {
		name        string
		token       string
		form        url.Values
		status      int
		code        string
		description string
	}{
		{"no subject token", "", nil, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "subject_token must be specified"},
		{"unknown token", "not-a-token", nil, http.StatusUnauthorized, unikorn.ErrorAccessDenied, "token validation failed"},
		{"project without organization", DefaultToken, url.Values{"x_project_id": {ProjectID}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "x_organization_id must be specified"},
		{"another's organization", DefaultToken, url.Values{"x_organization_id": {ForeignOrganizationID}}, http.StatusBadRequest, oauth2InvalidScope, "organization not in scope"},
		{"outsider", OutsiderToken, url.Values{"x_organization_id": {OrganizationID}}, http.StatusBadRequest, oauth2InvalidScope, "organization not in scope"},
		{"another organization's project", AdminToken, url.Values{"x_organization_id": {OrganizationID}, "x_project_id": {ForeignProjectID}}, http.StatusBadRequest, oauth2InvalidScope, "project not in scope"},
		{"relative resource", DefaultToken, url.Values{"resource": {"not-a-uri"}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "resource must be an absolute URI"},
		{"identity token asked for", DefaultToken, url.Values{"requested_token_type": {"urn:ietf:params:oauth:token-type:id_token"}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "requested_token_type is not supported"},
		{"delegation", DefaultToken, url.Values{"actor_token": {DefaultToken}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "actor_token is not supported"},
		{"client credentials", DefaultToken, url.Values{"grant_type": {grantClientCredentials}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "mTLS client verification failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var body map[string]string

			h.exchange(c.token, c.form).expect(c.status, &body)
			assert.Equal(t, c.code, body["error"])
			assert.Contains(t, body["error_description"], c.description)
			assert.Len(t, body, 2, "identity's OAuth2 error body has nothing else")
		})
	}

	// Parameters in the query are refused, and a body without a grant type never
	// reaches the handler: the kin-openapi Unikorn builds with decodes the omitted field
	// as null, which its schema refuses.
	resp, err := http.PostForm(h.url+"/oauth2/v2/token?subject_token=x", url.Values{"grant_type": {grantTokenExchange}})
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)

	missing := h.postForm("/oauth2/v2/token", url.Values{"subject_token": {DefaultToken}})
	assert.Contains(t, missing.expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest).ErrorDescription,
		`request body has an error: doesn't match schema #/components/schemas/tokenRequestOptions: Error at "/grant_type": Value is not nullable`)
}

// A passport is what a service gets for the token it was given, not a credential: no
// service takes it as a bearer token, and identity will not exchange it again.
func TestAPassportIsNoBearerToken(t *testing.T) {
	h := newHarness(t)

	var token struct {
		AccessToken string `json:"access_token"`
	}

	h.exchange(DefaultToken, url.Values{"x_organization_id": {OrganizationID}}).expect(http.StatusOK, &token)
	passport := token.AccessToken

	for _, path := range []string{
		organizationPath(""),
		"/api/v2/networks",
		ComputePrefix + "/api/v2/instances",
		"/oauth2/v2/userinfo",
	} {
		var body unikorn.ErrorBody

		h.callAs(passport, http.MethodGet, path, nil).expect(http.StatusUnauthorized, &body)
		assert.Equal(t, unikorn.ErrorAccessDenied, body.Error, path)
	}

	var refusal map[string]string

	h.exchange(passport, nil).expect(http.StatusUnauthorized, &refusal)
	assert.Equal(t, unikorn.ErrorAccessDenied, refusal["error"])
}

func TestUserinfoIntrospectsEveryKindOfToken(t *testing.T) {
	h := newHarness(t)

	var account unikorn.ServiceAccount

	h.callAs(AdminToken, http.MethodPost, emptyOrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{}},
	}).expect(http.StatusCreated, &account)

	for _, c := range []struct {
		token string
		want  userinfoClaims
	}{
		{DefaultToken, userinfoClaims{Sub: UserSubject, Email: UserSubject, Authz: authClaims{Acctype: "user", OrgIDs: []string{OrganizationID}}}},
		{AdminToken, userinfoClaims{Sub: AdminSubject, Email: AdminSubject, Authz: authClaims{Acctype: "user", OrgIDs: []string{OrganizationID, EmptyOrganizationID}}}},
		{OutsiderToken, userinfoClaims{Sub: OutsiderSubject, Email: OutsiderSubject, Authz: authClaims{Acctype: "user", OrgIDs: []string{}}}},
		{ServiceToken, userinfoClaims{Sub: "unikorn-compute", Authz: authClaims{Acctype: "system", OrgIDs: []string{}}}},
		{account.Status.AccessToken, userinfoClaims{Sub: account.Metadata.ID, Authz: authClaims{Acctype: "service", OrgIDs: []string{EmptyOrganizationID}}}},
	} {
		var info userinfoClaims

		r := h.callAs(c.token, http.MethodGet, "/oauth2/v2/userinfo", nil).expect(http.StatusOK, &info)
		assert.Equal(t, "no-cache", r.header.Get("Cache-Control"))

		info.EmailVerified = nil
		assert.Equal(t, c.want, info)
	}

	h.callAs("", http.MethodGet, "/oauth2/v2/userinfo", nil).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.callAs("not.a.token", http.MethodGet, "/oauth2/v2/userinfo", nil).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)

	// POST takes the token from the form too.
	var info userinfoClaims

	h.postForm("/oauth2/v2/userinfo", url.Values{"access_token": {DefaultToken}}).expect(http.StatusOK, &info)
	assert.Equal(t, UserSubject, info.Sub)
}

func TestOrganizationOAuth2Providers(t *testing.T) {
	h := newHarness(t)
	google := "google"

	write := map[string]any{
		"metadata": map[string]any{"name": "okta"},
		"spec":     map[string]any{"type": google, "issuer": "https://login.example.com", "clientID": "abc", "clientSecret": "s3cret"},
	}

	// A project user may not manage them.
	h.callAs(DefaultToken, http.MethodPost, organizationPath("/oauth2providers"), write).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	var created oauth2Provider

	r := h.callAs(AdminToken, http.MethodPost, organizationPath("/oauth2providers"), write).expect(http.StatusCreated, &created)
	assert.NotContains(t, string(r.body), "s3cret", "the secret is never read back")
	assert.Equal(t, OrganizationID, created.Metadata.OrganizationID)
	assert.Equal(t, unikorn.ProvisioningProvisioned, created.Metadata.ProvisioningStatus)
	assert.Equal(t, oauth2ProviderSpec{Type: &google, Issuer: "https://login.example.com", ClientID: "abc"}, created.Spec)

	path := organizationPath("/oauth2providers/" + created.Metadata.ID)

	write["spec"] = map[string]any{"issuer": "https://login.example.com", "clientID": "def"}
	h.callAs(AdminToken, http.MethodPut, path, write).expect(http.StatusOK, nil)

	var listed []oauth2Provider

	h.callAs(AdminToken, http.MethodGet, organizationPath("/oauth2providers"), nil).expect(http.StatusOK, &listed)
	require.Len(t, listed, 1)
	assert.Equal(t, oauth2ProviderSpec{Issuer: "https://login.example.com", ClientID: "def"}, listed[0].Spec)

	// Other organizations do not see it; an unknown provider is not found.
	h.callAs(AdminToken, http.MethodGet, emptyOrganizationPath("/oauth2providers"), nil).expect(http.StatusOK, &listed)
	assert.Empty(t, listed)
	h.callAs(AdminToken, http.MethodDelete, emptyOrganizationPath("/oauth2providers/"+created.Metadata.ID), nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(AdminToken, http.MethodDelete, organizationPath("/oauth2providers/not-a-uuid"), nil).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	h.callAs(AdminToken, http.MethodDelete, path, nil).expect(http.StatusOK, nil)
	h.callAs(AdminToken, http.MethodDelete, path, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	// The platform's are anyone's to list.
	h.callAs(OutsiderToken, http.MethodGet, "/api/v1/oauth2providers", nil).expect(http.StatusOK, &listed)
	require.Len(t, listed, 1)
	assert.Equal(t, h.url, listed[0].Spec.Issuer, "the platform's provider issues the sandbox's own users")
}

func TestEachServiceAnswersItsVersionAtItsBaseURL(t *testing.T) {
	h := newHarness(t)

	var version unikorn.ServiceVersion

	h.callAs(DefaultToken, http.MethodGet, "/api/version", nil).expect(http.StatusOK, &version)
	assert.Equal(t, unikorn.ServiceVersion{Name: "unikorn-identity", Version: "1.18.1"}, version)

	h.callAs(DefaultToken, http.MethodGet, RegionPrefix+"/api/version", nil).expect(http.StatusOK, &version)
	assert.Equal(t, unikorn.ServiceVersion{Name: "unikorn-region-controller", Version: "1.20.0"}, version)

	h.callAs("", http.MethodGet, "/api/version", nil).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)

	// Region's base URL serves region's operations and only those, and points a client
	// it turns away at its own metadata.
	var networks []unikorn.Network

	h.callAs(DefaultToken, http.MethodGet, RegionPrefix+"/api/v2/networks", nil).expect(http.StatusOK, &networks)
	assert.NotEmpty(t, networks)
	h.callAs(DefaultToken, http.MethodGet, RegionPrefix+organizationPath("/regions"), nil).expect(http.StatusOK, nil)
	h.callAs(DefaultToken, http.MethodGet, RegionPrefix+organizationPath(""), nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(DefaultToken, http.MethodPost, RegionPrefix+"/oauth2/v2/token", nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	refused := h.callAs("", http.MethodGet, RegionPrefix+"/api/v2/networks", nil)
	refused.expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	assert.Contains(t, refused.header.Get("WWW-Authenticate"), h.url+RegionPrefix+"/.well-known/openid-protected-resource")
	h.callAs("", http.MethodGet, RegionPrefix+"/.well-known/openid-protected-resource", nil).expect(http.StatusOK, nil)
}
