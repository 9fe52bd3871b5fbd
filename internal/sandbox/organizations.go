package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// organizationWriteRequired is the required part of identity `organizationWrite`.
var organizationWriteRequired = requiredWith("spec", "spec.organizationType")

// addOrganizations puts the fixture organizations in the world, where updates
// change them. Which organizations exist is fixed: the sandbox creates and deletes
// none.
func (w *world) addOrganizations() {
	for _, organization := range organizations {
		copied := organization
		w.Organizations[organization.Metadata.ID] = &copied
	}
}

// organizationsByCatalogue are the organizations as they are now, in the catalogue's order.
func (w *world) organizationsByCatalogue() []*unikorn.Organization {
	result := make([]*unikorn.Organization, 0, len(organizations))

	for _, organization := range organizations {
		if record, ok := w.Organizations[organization.Metadata.ID]; ok {
			result = append(result, record)
		}
	}

	return result
}

// updateOrganization is identity's organization update (pkg/handler/organizations):
// the name, description and tags are replaced, and the spec as generate makes it,
// where only a domain organization keeps a domain and a provider. It answers 200
// with no body.
func (s *Sandbox) updateOrganization(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(id, rbacOrganizations, opUpdate)); err != nil {
		return nil, err
	}

	var body struct {
		Metadata unikorn.WriteMetadata    `json:"metadata"`
		Spec     unikorn.OrganizationSpec `json:"spec"`
	}

	if err := decodeBody(req.Request, &body, organizationWriteRequired...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	spec := unikorn.OrganizationSpec{OrganizationType: body.Spec.OrganizationType}

	switch body.Spec.OrganizationType {
	case "adhoc":
	case "domain":
		if !slices.Contains([]string{"global", "organization"}, body.Spec.ProviderScope) {
			return nil, errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/providerScope\": value is not one of the allowed values [\"global\",\"organization\"]")
		}

		spec.Domain, spec.ProviderScope, spec.ProviderID, spec.GoogleCustomerID = body.Spec.Domain, body.Spec.ProviderScope, body.Spec.ProviderID, body.Spec.GoogleCustomerID
	default:
		return nil, errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/organizationType\": value is not one of the allowed values [\"adhoc\",\"domain\"]")
	}

	organization, ok := s.world.Organizations[id]
	if !ok {
		return nil, errNotFound()
	}

	updated := *organization
	rewriteMetadata(&updated.Metadata, body.Metadata, req.Now)
	updated.Spec = spec
	s.world.Organizations[id] = &updated

	return replyOK(nil), nil
}
