package oauth2_test

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

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/oauth2"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// exchange posts a token-exchange request for token with the extra form parameters.
func exchange(h *sandboxtest.Harness, token string, extra url.Values) *sandboxtest.Response {
	h.T.Helper()

	form := url.Values{"grant_type": {oauth2.GrantTokenExchange}, "subject_token_type": {oauth2.AccessTokenType}}
	if token != "" {
		form.Set("subject_token", token)
	}

	for name, values := range extra {
		form[name] = values
	}

	return postForm(h, "/oauth2/v2/token", form)
}

func postForm(h *sandboxtest.Harness, path string, form url.Values) *sandboxtest.Response {
	h.T.Helper()

	resp, err := http.PostForm(h.URL+path, form)
	require.NoError(h.T, err)

	defer resp.Body.Close()

	var body json.RawMessage

	require.NoError(h.T, json.NewDecoder(resp.Body).Decode(&body))

	return &sandboxtest.Response{T: h.T, Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// verifyPassport checks a passport's ES512 signature against the published key set, as
// a downstream service would, and returns its claims.
func verifyPassport(h *sandboxtest.Harness, passport string) map[string]any {
	h.T.Helper()

	var keys struct {
		Keys []map[string]string `json:"keys"`
	}

	h.CallAs("", http.MethodGet, "/oauth2/v2/jwks", nil).Expect(http.StatusOK, &keys)
	require.Len(h.T, keys.Keys, 1)

	parts := strings.Split(passport, ".")
	require.Len(h.T, parts, 3)

	var header map[string]string

	require.NoError(h.T, json.Unmarshal(decodeSegment(h.T, parts[0]), &header))
	assert.Equal(h.T, "ES512", header["alg"])

	key := keys.Keys[0]
	require.Equal(h.T, key["kid"], header["kid"], "the passport names the published key")
	assert.Equal(h.T, map[string]string{"use": "sig", "kty": "EC", "crv": "P-521", "alg": "ES512"},
		map[string]string{"use": key["use"], "kty": key["kty"], "crv": key["crv"], "alg": key["alg"]})

	public := &ecdsa.PublicKey{
		Curve: elliptic.P521(),
		X:     new(big.Int).SetBytes(decodeSegment(h.T, key["x"])),
		Y:     new(big.Int).SetBytes(decodeSegment(h.T, key["y"])),
	}

	signature := decodeSegment(h.T, parts[2])
	require.Len(h.T, signature, 2*oauth2.ES512Size)

	digest := sha512.Sum512([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(signature[:oauth2.ES512Size]), new(big.Int).SetBytes(signature[oauth2.ES512Size:])
	require.True(h.T, ecdsa.Verify(public, digest[:], r, s), "the signature verifies against the key set")

	var claims map[string]any

	require.NoError(h.T, json.Unmarshal(decodeSegment(h.T, parts[1]), &claims))

	return claims
}

func decodeSegment(t *testing.T, segment string) []byte {
	t.Helper()

	data, err := base64.RawURLEncoding.DecodeString(segment)
	require.NoError(t, err)

	return data
}

func TestTokenExchangeMintsASignedPassport(t *testing.T) {
	h := sandboxtest.New(t)

	var token struct {
		TokenType       string `json:"token_type"`
		AccessToken     string `json:"access_token"`
		ExpiresIn       int    `json:"expires_in"`
		IssuedTokenType string `json:"issued_token_type"`
	}

	exchange(h, sandbox.DefaultToken, url.Values{
		"x_organization_id": {sandbox.OrganizationID}, "x_project_id": {sandbox.ProjectID},
		"resource": {"https://region.example.com/"}, "audience": {"uni-region"},
	}).Expect(http.StatusOK, &token)

	assert.Equal(t, "Bearer", token.TokenType)
	assert.Equal(t, oauth2.PassportType, token.IssuedTokenType)
	assert.Equal(t, 60, token.ExpiresIn)

	claims := verifyPassport(h, token.AccessToken)
	now := float64(h.Clock.Now().Unix())

	assert.Equal(t, map[string]any{
		"iss": "uni-identity", "sub": sandbox.UserSubject, "aud": []any{"https://region.example.com/", "uni-region"},
		"iat": now, "nbf": now, "exp": now + 60, "jti": claims["jti"],
		"typ": "passport", "acctype": "user", "source": "uni", "src_iss": "uni", "email": sandbox.UserSubject,
		"org_ids": []any{sandbox.OrganizationID}, "org_id": sandbox.OrganizationID, "project_id": sandbox.ProjectID,
	}, claims)

	// Every exchange mints a passport of its own.
	exchange(h, sandbox.DefaultToken, nil).Expect(http.StatusOK, &token)
	assert.NotEqual(t, claims["jti"], verifyPassport(h, token.AccessToken)["jti"])
}

func TestAPassportNeverOutlivesItsSourceToken(t *testing.T) {
	h := sandboxtest.New(t)

	var account unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.OrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{}},
	}).Expect(http.StatusCreated, &account)

	// Thirty seconds before the account's token expires, its passport lasts thirty.
	h.Clock.Advance(account.Status.Expiry.Sub(h.Clock.Now()) - 30*time.Second)

	var token struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}

	exchange(h, account.Status.AccessToken, url.Values{"x_organization_id": {sandbox.OrganizationID}}).Expect(http.StatusOK, &token)
	assert.Equal(t, 30, token.ExpiresIn)

	claims := verifyPassport(h, token.AccessToken)
	assert.Equal(t, "service", claims["acctype"])
	assert.Equal(t, account.Metadata.ID, claims["sub"])
	assert.Equal(t, []any{sandbox.OrganizationID}, claims["org_ids"])
}

func TestTokenExchangeRefusals(t *testing.T) {
	h := sandboxtest.New(t)

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
		{"project without organization", sandbox.DefaultToken, url.Values{"x_project_id": {sandbox.ProjectID}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "x_organization_id must be specified"},
		{"another's organization", sandbox.DefaultToken, url.Values{"x_organization_id": {sandbox.ForeignOrganizationID}}, http.StatusBadRequest, oauth2.OAuth2InvalidScope, "organization not in scope"},
		{"outsider", sandbox.OutsiderToken, url.Values{"x_organization_id": {sandbox.OrganizationID}}, http.StatusBadRequest, oauth2.OAuth2InvalidScope, "organization not in scope"},
		{"another organization's project", sandbox.AdminToken, url.Values{"x_organization_id": {sandbox.OrganizationID}, "x_project_id": {sandbox.ForeignProjectID}}, http.StatusBadRequest, oauth2.OAuth2InvalidScope, "project not in scope"},
		{"relative resource", sandbox.DefaultToken, url.Values{"resource": {"not-a-uri"}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "resource must be an absolute URI"},
		{"identity token asked for", sandbox.DefaultToken, url.Values{"requested_token_type": {"urn:ietf:params:oauth:token-type:id_token"}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "requested_token_type is not supported"},
		{"delegation", sandbox.DefaultToken, url.Values{"actor_token": {sandbox.DefaultToken}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "actor_token is not supported"},
		{"client credentials", sandbox.DefaultToken, url.Values{"grant_type": {oauth2.GrantClientCredentials}}, http.StatusBadRequest, unikorn.ErrorInvalidRequest, "mTLS client verification failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var body map[string]string

			exchange(h, c.token, c.form).Expect(c.status, &body)
			assert.Equal(t, c.code, body["error"])
			assert.Contains(t, body["error_description"], c.description)
			assert.Len(t, body, 2, "identity's OAuth2 error body has nothing else")
		})
	}

	// Parameters in the query are refused, and a body without a grant type never
	// reaches the handler: the kin-openapi Unikorn builds with decodes the omitted field
	// as null, which its schema refuses.
	resp, err := http.PostForm(h.URL+"/oauth2/v2/token?subject_token=x", url.Values{"grant_type": {oauth2.GrantTokenExchange}})
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)

	missing := postForm(h, "/oauth2/v2/token", url.Values{"subject_token": {sandbox.DefaultToken}})
	assert.Contains(t, missing.ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest).ErrorDescription,
		`request body has an error: doesn't match schema #/components/schemas/tokenRequestOptions: Error at "/grant_type": Value is not nullable`)
}

// A passport is what a service gets for the token it was given, not a credential: no
// service takes it as a bearer token, and identity will not exchange it again.
func TestAPassportIsNoBearerToken(t *testing.T) {
	h := sandboxtest.New(t)

	var token struct {
		AccessToken string `json:"access_token"`
	}

	exchange(h, sandbox.DefaultToken, url.Values{"x_organization_id": {sandbox.OrganizationID}}).Expect(http.StatusOK, &token)
	passport := token.AccessToken

	for _, path := range []string{
		sandboxtest.OrganizationPath(""),
		"/api/v2/networks",
		sandbox.ComputePrefix + "/api/v2/instances",
		"/oauth2/v2/userinfo",
	} {
		var body unikorn.ErrorBody

		h.CallAs(passport, http.MethodGet, path, nil).Expect(http.StatusUnauthorized, &body)
		assert.Equal(t, unikorn.ErrorAccessDenied, body.Error, path)
	}

	var refusal map[string]string

	exchange(h, passport, nil).Expect(http.StatusUnauthorized, &refusal)
	assert.Equal(t, unikorn.ErrorAccessDenied, refusal["error"])
}

func TestUserinfoIntrospectsEveryKindOfToken(t *testing.T) {
	h := sandboxtest.New(t)

	var account unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.EmptyOrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "ci"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{}},
	}).Expect(http.StatusCreated, &account)

	for _, c := range []struct {
		token string
		want  oauth2.UserinfoClaims
	}{
		{sandbox.DefaultToken, oauth2.UserinfoClaims{Sub: sandbox.UserSubject, Email: sandbox.UserSubject, Authz: oauth2.AuthClaims{Acctype: "user", OrgIDs: []string{sandbox.OrganizationID}}}},
		{sandbox.AdminToken, oauth2.UserinfoClaims{Sub: sandbox.AdminSubject, Email: sandbox.AdminSubject, Authz: oauth2.AuthClaims{Acctype: "user", OrgIDs: []string{sandbox.OrganizationID, sandbox.EmptyOrganizationID}}}},
		{sandbox.OutsiderToken, oauth2.UserinfoClaims{Sub: sandbox.OutsiderSubject, Email: sandbox.OutsiderSubject, Authz: oauth2.AuthClaims{Acctype: "user", OrgIDs: []string{}}}},
		{sandbox.ServiceToken, oauth2.UserinfoClaims{Sub: "unikorn-compute", Authz: oauth2.AuthClaims{Acctype: "system", OrgIDs: []string{}}}},
		{sandbox.KubernetesServiceToken, oauth2.UserinfoClaims{Sub: "unikorn-kubernetes", Authz: oauth2.AuthClaims{Acctype: "system", OrgIDs: []string{}}}},
		{account.Status.AccessToken, oauth2.UserinfoClaims{Sub: account.Metadata.ID, Authz: oauth2.AuthClaims{Acctype: "service", OrgIDs: []string{sandbox.EmptyOrganizationID}}}},
	} {
		var info oauth2.UserinfoClaims

		r := h.CallAs(c.token, http.MethodGet, "/oauth2/v2/userinfo", nil).Expect(http.StatusOK, &info)
		assert.Equal(t, "no-cache", r.Header.Get("Cache-Control"))

		info.EmailVerified = nil
		assert.Equal(t, c.want, info)
	}

	h.CallAs("", http.MethodGet, "/oauth2/v2/userinfo", nil).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.CallAs("not.a.token", http.MethodGet, "/oauth2/v2/userinfo", nil).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)

	// POST takes the token from the form too.
	var info oauth2.UserinfoClaims

	postForm(h, "/oauth2/v2/userinfo", url.Values{"access_token": {sandbox.DefaultToken}}).Expect(http.StatusOK, &info)
	assert.Equal(t, sandbox.UserSubject, info.Sub)
}
