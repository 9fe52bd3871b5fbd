package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// OAuth2 providers, as identity v1.18.1 serves them (pkg/handler/oauth2providers): the
// platform's, which its chart installs and anyone signed in may list, and each
// organization's own, which its administrators manage.

// rbacOAuth2Providers is the RBAC endpoint of an organization's providers.
const rbacOAuth2Providers = "identity:oauth2providers"

// PlatformOAuth2ProviderID is the platform's provider: where the sandbox's users sign
// in, the issuer their group subjects name.
const PlatformOAuth2ProviderID = "a0000000-0000-4000-8000-000000000301"

// oauth2Provider is identity `oauth2ProviderRead` and what the sandbox keeps of a
// provider: the client secret is written but, as identity's convert leaves it out,
// never read back.
type oauth2Provider struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	Spec     oauth2ProviderSpec                 `json:"spec"`
}

// oauth2ProviderSpec is identity `oauth2ProviderSpec`.
type oauth2ProviderSpec struct {
	Type         *string `json:"type,omitempty"`
	Issuer       string  `json:"issuer"`
	ClientID     string  `json:"clientID"`
	ClientSecret string  `json:"clientSecret,omitempty"`
}

// oauth2ProviderTypes is identity `oauth2ProviderType`.
var oauth2ProviderTypes = []string{"google", "microsoft", "github"}

// platformOAuth2Providers are the providers of identity's own namespace. Identity's
// list converts them as it does an organization's, so their organization ID reads
// empty.
var platformOAuth2Providers = []oauth2Provider{{
	Metadata: unikorn.OrganizationScopedMetadata{ReadMetadata: provisionedMetadata(PlatformOAuth2ProviderID, "sandbox")},
	Spec:     oauth2ProviderSpec{Issuer: localIssuer, ClientID: "unikorn-sandbox"},
}}

// read is the provider as identity answers it.
func (p *oauth2Provider) read() oauth2Provider {
	read := *p
	read.Spec.ClientSecret = ""

	return read
}

// registerOAuth2ProviderRoutes adds the providers' operations.
func (s *Sandbox) registerOAuth2ProviderRoutes() {
	s.core.Handle("GET /api/v1/oauth2providers", s.listPlatformOAuth2Providers)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/oauth2providers", s.listOAuth2Providers)
	s.core.Handle("POST /api/v1/organizations/{organizationID}/oauth2providers", s.createOAuth2Provider)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}/oauth2providers/{providerID}", s.updateOAuth2Provider)
	s.core.Handle("DELETE /api/v1/organizations/{organizationID}/oauth2providers/{providerID}", s.deleteOAuth2Provider)
}

// listPlatformOAuth2Providers asks no permission: whoever is signed in may see where
// one signs in.
func (s *Sandbox) listPlatformOAuth2Providers(req *core.Request) (*core.Reply, error) {
	result := make([]oauth2Provider, 0, len(platformOAuth2Providers))
	for i := range platformOAuth2Providers {
		provider := platformOAuth2Providers[i].read()
		if provider.Spec.Issuer == localIssuer {
			// The issuer the sandbox's users' subjects name: its own address.
			provider.Spec.Issuer = baseURL(req.Request)
		}

		result = append(result, provider)
	}

	return uncacheable(replyOK(result)), nil
}

func (s *Sandbox) listOAuth2Providers(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacOAuth2Providers, opRead)); err != nil {
		return nil, err
	}

	if !organizationExists(organizationID) {
		return nil, errNotFound()
	}

	// In Kubernetes name order, which is the ID.
	result := []oauth2Provider{}

	for _, provider := range byID(s.world.OAuth2Providers) {
		if provider.Metadata.OrganizationID == organizationID {
			result = append(result, provider.read())
		}
	}

	return uncacheable(replyOK(result)), nil
}

// oauth2ProviderWriteRequired is the required part of identity `oauth2ProviderWrite`.
var oauth2ProviderWriteRequired = requiredWith("spec", "spec.issuer", "spec.clientID")

func decodeOAuth2Provider(req *core.Request) (oauth2ProviderSpec, unikorn.WriteMetadata, error) {
	var body struct {
		Metadata unikorn.WriteMetadata `json:"metadata"`
		Spec     oauth2ProviderSpec    `json:"spec"`
	}

	if err := decodeBody(req.Request, &body, oauth2ProviderWriteRequired...); err != nil {
		return body.Spec, body.Metadata, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return body.Spec, body.Metadata, err
	}

	if body.Spec.Type != nil && !slices.Contains(oauth2ProviderTypes, *body.Spec.Type) {
		return body.Spec, body.Metadata, errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/type\": value is not one of the allowed values %q", oauth2ProviderTypes)
	}

	return body.Spec, body.Metadata, nil
}

// findOAuth2ProviderScope checks the caller may act on the organization's providers and
// that the organization exists, as identity's handler, then its client, do.
func findOAuth2ProviderScope(req *core.Request, operation string) (string, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacOAuth2Providers, operation)); err != nil {
		return "", err
	}

	if !organizationExists(organizationID) {
		return "", errNotFound()
	}

	return organizationID, nil
}

// The body is checked first: identity's OpenAPI validation reads it before the handler
// asks RBAC.
func (s *Sandbox) createOAuth2Provider(req *core.Request) (*core.Reply, error) {
	spec, metadata, err := decodeOAuth2Provider(req)
	if err != nil {
		return nil, err
	}

	organizationID, err := findOAuth2ProviderScope(req, opCreate)
	if err != nil {
		return nil, err
	}

	provider := &oauth2Provider{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   groupMetadata(newReadMetadata(newResourceID(), metadata, req.Now)),
			OrganizationID: organizationID,
		},
		Spec: spec,
	}

	s.world.OAuth2Providers[provider.Metadata.ID] = provider

	return uncacheable(replyCreated(provider.read())), nil
}

// updateOAuth2Provider replaces a provider's metadata and spec, a client secret left
// out included, and answers with no body.
func (s *Sandbox) updateOAuth2Provider(req *core.Request) (*core.Reply, error) {
	spec, metadata, err := decodeOAuth2Provider(req)
	if err != nil {
		return nil, err
	}

	organizationID, err := findOAuth2ProviderScope(req, opUpdate)
	if err != nil {
		return nil, err
	}

	provider, ok := s.world.OAuth2Providers[req.PathValue("providerID")]
	if !ok || provider.Metadata.OrganizationID != organizationID {
		return nil, errNotFound()
	}

	updated := *provider
	rewriteMetadata(&updated.Metadata.ReadMetadata, metadata, req.Now)
	updated.Spec = spec
	s.world.OAuth2Providers[provider.Metadata.ID] = &updated

	return uncacheable(replyOK(nil)), nil
}

func (s *Sandbox) deleteOAuth2Provider(req *core.Request) (*core.Reply, error) {
	organizationID, err := findOAuth2ProviderScope(req, opDelete)
	if err != nil {
		return nil, err
	}

	provider, ok := s.world.OAuth2Providers[req.PathValue("providerID")]
	if !ok || provider.Metadata.OrganizationID != organizationID {
		return nil, errNotFound()
	}

	delete(s.world.OAuth2Providers, provider.Metadata.ID)

	return uncacheable(replyOK(nil)), nil
}

// organizationExists reports whether the organization is one of the sandbox's.
func organizationExists(id string) bool {
	return slices.ContainsFunc(organizations, func(o unikorn.Organization) bool { return o.Metadata.ID == id })
}
