package core

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// RequireOrganization allows what the caller may do at organization scope. A legacy
// fixture principal needs only to belong to the organization; everyone else needs the
// permission. Everyone else is forbidden, whether or not the organization exists.
func RequireOrganization(caller *Caller, organizationID, endpoint, operation string) error {
	if caller.Legacy {
		if !caller.IsMember(organizationID) {
			return RBACError(endpoint, operation, "organization")
		}

		return nil
	}

	return Forbid(caller.ACL.AllowOrganization(organizationID, endpoint, operation))
}

// RequireProject allows what the caller may do in a project: an outsider to the
// organization is forbidden, a project the organization does not have is not found.
// Creating anything in a project being deleted is refused, as identity refuses the
// reference that every service adds to a project it creates in.
func RequireProject(st *Store, caller *Caller, organizationID, projectID, endpoint, operation string) error {
	if !caller.IsMember(organizationID) {
		if caller.Legacy {
			return RBACError(endpoint, operation, "project")
		}

		return Forbid(caller.ACL.AllowProject(organizationID, projectID, endpoint, operation))
	}

	project, ok := FindProject(st, organizationID, projectID)
	if !ok {
		return NotFound()
	}

	if err := AllowInProject(caller, organizationID, projectID, endpoint, operation); err != nil {
		return err
	}

	if operation == OpCreate && project.Metadata.DeletionTime != nil {
		return BadRequest("unable to add reference, resource is being deleted")
	}

	return nil
}

// FindProject finds a project of the organization, deleting or not.
func FindProject(st *Store, organizationID, projectID string) (*unikorn.Project, bool) {
	project, ok := Get[unikorn.Project](st, projectID)
	if !ok || project.Metadata.OrganizationID != organizationID {
		return nil, false
	}

	return project, true
}

// AllowInProject allows an operation in a project.
func AllowInProject(caller *Caller, organizationID, projectID, endpoint, operation string) error {
	if caller.Legacy {
		if !caller.CanUse(organizationID, projectID) {
			return RBACError(endpoint, operation, "project")
		}

		return nil
	}

	return Forbid(caller.ACL.AllowProject(organizationID, projectID, endpoint, operation))
}

// Lookup finds a project-scoped record: not found when absent, forbidden when the
// caller may not act on it in the project it belongs to.
func Lookup[R any](records map[string]*R, id string, caller *Caller, metadataOf func(*R) *unikorn.ProjectScopedMetadata, endpoint, operation string) (*R, error) {
	record, ok := records[id]
	if !ok {
		return nil, NotFound()
	}

	metadata := metadataOf(record)
	if err := AllowInProject(caller, metadata.OrganizationID, metadata.ProjectID, endpoint, operation); err != nil {
		return nil, err
	}

	return record, nil
}

// LookupAs is Lookup of another family's object, by its shared API type, in the
// project its placement names.
func LookupAs[T any](st *Store, id string, caller *Caller, endpoint, operation string) (*T, error) {
	object, place, ok := Find[T](st, id)
	if !ok {
		return nil, NotFound()
	}

	if err := AllowInProject(caller, place.OrganizationID, place.ProjectID, endpoint, operation); err != nil {
		return nil, err
	}

	return object, nil
}

// RequireRegion checks the organization-scoped path of a region's catalogue
// (/api/v1/organizations/{organizationID}/regions/{regionID}/…): members only, and a
// region the caller may not use is simply not found.
func RequireRegion(req *Request, endpoint, operation string) error {
	if err := RequireOrganization(req.Caller, req.PathValue("organizationID"), endpoint, operation); err != nil {
		return err
	}

	if _, ok := Visible[unikorn.Region](req.Store, req.Caller, req.PathValue("regionID")); !ok {
		return NotFound()
	}

	return nil
}
