// Package organizations is identity's organizations (pkg/handler/organizations): the
// fixed set the sandbox holds (it creates and deletes none), as updates leave them,
// and the identity service itself as the sandbox serves it (its document and version,
// at the root of the sandbox's listener). Other families read organizations as
// unikorn.Organization.
package organizations

import (
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's organizations and service.
var Family = core.Family{Name: "organizations", Register: register}

// The release identity reports: its binary's name, as Unikorn's constants.Application
// takes it from os.Args[0], and the version of identity the sandbox follows
// (pkg/handler/handler_version.go).
const (
	application = "unikorn-identity"
	release     = "1.18.1"
)

const rbacOrganizations = "identity:organizations"

// catalogue are the organizations the sandbox has, in its order.
var catalogue = []unikorn.Organization{{
	Metadata: core.ProvisionedMetadata(fixture.OrganizationID, "sandbox"),
	Spec:     unikorn.OrganizationSpec{OrganizationType: "adhoc"},
}, {
	Metadata: core.ProvisionedMetadata(fixture.ForeignOrganizationID, "foreign"),
	Spec:     unikorn.OrganizationSpec{OrganizationType: "adhoc"},
}, {
	Metadata: core.ProvisionedMetadata(fixture.EmptyOrganizationID, "empty"),
	Spec:     unikorn.OrganizationSpec{OrganizationType: "adhoc"},
}}

// organizations are the catalogue's organizations as updates left them.
var organizations = &core.Kind[unikorn.Organization]{Name: "organizations"}

func register(s *core.Server) error {
	core.Register(s, organizations)
	core.Expose(s, organizations, core.View[unikorn.Organization, unikorn.Organization]{
		Show: func(o *unikorn.Organization) *unikorn.Organization { return o },
	})

	// The root answers as identity, whose base URL it is beyond doubt: it alone serves
	// /oauth2.
	s.Declare(core.Service{
		Name: "identity", Document: openapi.Identity,
		Version: unikorn.ServiceVersion{Name: application, Version: release},
	})

	s.Handle("GET /api/v1/organizations", list)
	s.Handle("GET /api/v1/organizations/{organizationID}", get)
	s.Handle("PUT /api/v1/organizations/{organizationID}", update)

	s.Fixture(fixtures)
	// Versions 1 and 2 kept no organizations.
	s.Migrate(1, fixtures)
	s.Migrate(2, fixtures)

	return nil
}

// fixtures puts the catalogue's organizations in the store, where updates change them.
func fixtures(st *core.Store) error {
	for _, organization := range catalogue {
		copied := organization
		organizations.Put(st, organization.Metadata.ID, &copied)
	}

	return nil
}

func list(req *core.Request) (*core.Reply, error) {
	result := []unikorn.Organization{}

	for _, entry := range catalogue {
		if organization, ok := organizations.Get(req.Store, entry.Metadata.ID); ok && req.Caller.IsMember(entry.Metadata.ID) {
			result = append(result, *organization)
		}
	}

	return core.OK(result), nil
}

func get(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("organizationID")

	if err := core.RequireOrganization(req.Caller, id, rbacOrganizations, core.OpRead); err != nil {
		return nil, err
	}

	organization, ok := organizations.Get(req.Store, id)
	if !ok {
		return nil, core.NotFound()
	}

	return core.OK(organization), nil
}

// writeRequired is the required part of identity `organizationWrite`.
var writeRequired = core.RequiredWith("spec", "spec.organizationType")

// update is identity's organization update (pkg/handler/organizations):
// the name, description and tags are replaced, and the spec as generate makes it,
// where only a domain organization keeps a domain and a provider. It answers 200
// with no body.
func update(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(id, rbacOrganizations, core.OpUpdate)); err != nil {
		return nil, err
	}

	var body struct {
		Metadata unikorn.WriteMetadata    `json:"metadata"`
		Spec     unikorn.OrganizationSpec `json:"spec"`
	}

	if err := core.DecodeBody(req.Request, &body, writeRequired...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	spec := unikorn.OrganizationSpec{OrganizationType: body.Spec.OrganizationType}

	switch body.Spec.OrganizationType {
	case "adhoc":
	case "domain":
		if !slices.Contains([]string{"global", "organization"}, body.Spec.ProviderScope) {
			return nil, core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/providerScope\": value is not one of the allowed values [\"global\",\"organization\"]")
		}

		spec.Domain, spec.ProviderScope, spec.ProviderID, spec.GoogleCustomerID = body.Spec.Domain, body.Spec.ProviderScope, body.Spec.ProviderID, body.Spec.GoogleCustomerID
	default:
		return nil, core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/organizationType\": value is not one of the allowed values [\"adhoc\",\"domain\"]")
	}

	organization, ok := organizations.Get(req.Store, id)
	if !ok {
		return nil, core.NotFound()
	}

	updated := *organization
	core.RewriteMetadata(&updated.Metadata, body.Metadata, req.Now)
	updated.Spec = spec
	organizations.Put(req.Store, id, &updated)

	return core.OK(nil), nil
}
