package oauth2

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
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
)

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
// its organization; a service principal by its certificate's name, in none.
func userinfoOf(p *core.Caller) userinfoClaims {
	switch {
	case p.ServiceAccountID != "":
		return userinfoClaims{Sub: p.ServiceAccountID, Authz: authClaims{Acctype: acctypeService, OrgIDs: []string{p.OrganizationID}}}
	case p.Service:
		return userinfoClaims{Sub: p.Subject, Authz: authClaims{Acctype: acctypeSystem, OrgIDs: []string{}}}
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
func (h *handlers) jwks(w http.ResponseWriter, _ *http.Request) {
	body, _ := json.Marshal(map[string]any{"keys": []map[string]string{h.signing.jwk}})

	core.WriteJSON(w, http.StatusOK, "no-cache", append(body, '\n'))
}

// userinfo is identity's token introspection. GET takes the token from the
// Authorization header only, and answers a malformed header as a bad request; POST
// also takes it from the form's access_token, and answers every failure 401.
func (h *handlers) userinfo(w http.ResponseWriter, r *http.Request) {
	token, err := userinfoToken(r)
	if err != nil {
		var bad *core.Error
		if errors.As(err, &bad) {
			core.WriteError(w, err)
		} else {
			core.WriteUnauthorized(w, r, err)
		}

		return
	}

	var (
		info     userinfoClaims
		resolved error
	)

	h.s.Current(func(st *core.Store, now time.Time) {
		var caller *core.Caller
		if caller, resolved = core.Resolve(h.s, st, token, now); resolved == nil {
			info = userinfoOf(caller)
		}
	})

	if resolved != nil {
		if r.Method == http.MethodPost && r.Header.Get("Authorization") == "" {
			resolved = errors.New("access token is invalid")
		}

		core.WriteUnauthorized(w, r, resolved)

		return
	}

	body, _ := json.Marshal(info)

	core.WriteJSON(w, http.StatusOK, "no-cache", append(body, '\n'))
}

// userinfoToken is the token userinfo introspects, or why there is none: an *core.Error
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
		return "", core.BadRequest("authorization header malformed")
	case len(parts) != 2:
		return "", errors.New("authorization header malformed")
	case !strings.EqualFold(parts[0], "bearer") && r.Method == http.MethodGet:
		return "", core.BadRequest("authorization scheme not allowed")
	case !strings.EqualFold(parts[0], "bearer"):
		return "", errors.New("authorization scheme not allowed")
	}

	return parts[1], nil
}
