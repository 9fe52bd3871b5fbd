// Package oauth2providers is identity's OAuth2 providers, as identity v1.18.1 serves
// them (pkg/handler/oauth2providers): the platform's, which its chart installs and
// anyone signed in may list, and each organization's own, which its administrators
// manage.
package oauth2providers

import (
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's OAuth2 providers.
var Family = core.Family{Name: "oauth2providers", Register: register}

// providers are the organizations' own OAuth2 providers.
var providers = &core.Kind[provider]{Name: "oauth2Providers"}

// rbacOAuth2Providers is the RBAC endpoint of an organization's providers.
const rbacOAuth2Providers = "identity:oauth2providers"

// PlatformOAuth2ProviderID is the platform's provider: where the sandbox's users sign
// in, the issuer their group subjects name.
const PlatformOAuth2ProviderID = "a0000000-0000-4000-8000-000000000301"

// provider is identity `oauth2ProviderRead` and what the sandbox keeps of a
// provider: the client secret is written but, as identity's convert leaves it out,
// never read back.
type provider struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	Spec     providerSpec                       `json:"spec"`
}

// providerSpec is identity `oauth2ProviderSpec`.
type providerSpec struct {
	Type         *string `json:"type,omitempty"`
	Issuer       string  `json:"issuer"`
	ClientID     string  `json:"clientID"`
	ClientSecret string  `json:"clientSecret,omitempty"`
}

// providerTypes is identity `oauth2ProviderType`.
var providerTypes = []string{"google", "microsoft", "github"}

// platformOAuth2Providers are the providers of identity's own namespace. Identity's
// list converts them as it does an organization's, so their organization ID reads
// empty.
var platformOAuth2Providers = []provider{{
	Metadata: unikorn.OrganizationScopedMetadata{ReadMetadata: core.ProvisionedMetadata(PlatformOAuth2ProviderID, "sandbox")},
	Spec:     providerSpec{Issuer: fixture.LocalIssuer, ClientID: "unikorn-sandbox"},
}}

// read is the provider as identity answers it.
func (p *provider) read() provider {
	read := *p
	read.Spec.ClientSecret = ""

	return read
}

func register(s *core.Server) error {
	core.Register(s, providers)

	s.Handle("GET /api/v1/oauth2providers", listPlatform)
	s.Handle("GET /api/v1/organizations/{organizationID}/oauth2providers", list)
	s.Handle("POST /api/v1/organizations/{organizationID}/oauth2providers", create)
	s.Handle("PUT /api/v1/organizations/{organizationID}/oauth2providers/{providerID}", update)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/oauth2providers/{providerID}", remove)

	return nil
}

// listPlatformOAuth2Providers asks no permission: whoever is signed in may see where
// one signs in.
func listPlatform(req *core.Request) (*core.Reply, error) {
	result := make([]provider, 0, len(platformOAuth2Providers))
	for i := range platformOAuth2Providers {
		provider := platformOAuth2Providers[i].read()
		if provider.Spec.Issuer == fixture.LocalIssuer {
			// The issuer the sandbox's users' subjects name: its own address.
			provider.Spec.Issuer = core.BaseURL(req.Request)
		}

		result = append(result, provider)
	}

	return core.Uncacheable(core.OK(result)), nil
}

func list(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacOAuth2Providers, core.OpRead)); err != nil {
		return nil, err
	}

	if _, ok := core.Get[unikorn.Organization](req.Store, organizationID); !ok {
		return nil, core.NotFound()
	}

	// In Kubernetes name order, which is the ID.
	result := []provider{}

	for _, provider := range providers.Sorted(req.Store) {
		if provider.Metadata.OrganizationID == organizationID {
			result = append(result, provider.read())
		}
	}

	return core.Uncacheable(core.OK(result)), nil
}

// writeRequired is the required part of identity `oauth2ProviderWrite`.
var writeRequired = core.RequiredWith("spec", "spec.issuer", "spec.clientID")

func decode(req *core.Request) (providerSpec, unikorn.WriteMetadata, error) {
	var body struct {
		Metadata unikorn.WriteMetadata `json:"metadata"`
		Spec     providerSpec          `json:"spec"`
	}

	if err := core.DecodeBody(req.Request, &body, writeRequired...); err != nil {
		return body.Spec, body.Metadata, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return body.Spec, body.Metadata, err
	}

	if body.Spec.Type != nil && !slices.Contains(providerTypes, *body.Spec.Type) {
		return body.Spec, body.Metadata, core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/type\": value is not one of the allowed values %q", providerTypes)
	}

	return body.Spec, body.Metadata, nil
}

// findOAuth2ProviderScope checks the caller may act on the organization's providers and
// that the organization exists, as identity's handler, then its client, do.
func findScope(req *core.Request, operation string) (string, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacOAuth2Providers, operation)); err != nil {
		return "", err
	}

	if _, ok := core.Get[unikorn.Organization](req.Store, organizationID); !ok {
		return "", core.NotFound()
	}

	return organizationID, nil
}

// The body is checked first: identity's OpenAPI validation reads it before the handler
// asks RBAC.
func create(req *core.Request) (*core.Reply, error) {
	spec, metadata, err := decode(req)
	if err != nil {
		return nil, err
	}

	organizationID, err := findScope(req, core.OpCreate)
	if err != nil {
		return nil, err
	}

	provider := &provider{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   core.Settled(core.NewReadMetadata(core.NewResourceID(), metadata, req.Now)),
			OrganizationID: organizationID,
		},
		Spec: spec,
	}

	providers.Put(req.Store, provider.Metadata.ID, provider)

	return core.Uncacheable(core.Created(provider.read())), nil
}

// updateOAuth2Provider replaces a provider's metadata and spec, a client secret left
// out included, and answers with no body.
func update(req *core.Request) (*core.Reply, error) {
	spec, metadata, err := decode(req)
	if err != nil {
		return nil, err
	}

	organizationID, err := findScope(req, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	provider, ok := providers.Get(req.Store, req.PathValue("providerID"))
	if !ok || provider.Metadata.OrganizationID != organizationID {
		return nil, core.NotFound()
	}

	updated := *provider
	core.RewriteMetadata(&updated.Metadata.ReadMetadata, metadata, req.Now)
	updated.Spec = spec
	providers.Put(req.Store, provider.Metadata.ID, &updated)

	return core.Uncacheable(core.OK(nil)), nil
}

func remove(req *core.Request) (*core.Reply, error) {
	organizationID, err := findScope(req, core.OpDelete)
	if err != nil {
		return nil, err
	}

	provider, ok := providers.Get(req.Store, req.PathValue("providerID"))
	if !ok || provider.Metadata.OrganizationID != organizationID {
		return nil, core.NotFound()
	}

	providers.Delete(req.Store, provider.Metadata.ID)

	return core.Uncacheable(core.OK(nil)), nil
}
