package sandbox

import (
	"slices"
)

// rbacProjectReferences is the endpoint of identity's project references, which only
// services' roles grant (region-service, kubernetes-service).
const rbacProjectReferences = "identity:projects/references"

// addProjectReference is identity's PUT
// /api/v1/organizations/{organizationID}/projects/{projectID}/references/{reference}:
// a service that made something in the project holds the project's deletion until it
// removes the reference (identity v1.18.1 pkg/handler/projects ReferenceCreate, which
// keeps it as a finalizer). Idempotent; refused on a project being deleted.
func (s *Sandbox) addProjectReference(req *request) (*reply, error) {
	record, err := s.referencedProject(req, opCreate)
	if err != nil {
		return nil, err
	}

	if record.Project.Metadata.DeletionTime != nil {
		return nil, errBadRequest("unable to add reference, resource is being deleted")
	}

	if reference := req.PathValue("reference"); !slices.Contains(record.References, reference) {
		record.References = append(record.References, reference)
	}

	return replyCreated(nil), nil
}

// removeProjectReference is identity's DELETE of a reference: 204 whether or not the
// project held it.
func (s *Sandbox) removeProjectReference(req *request) (*reply, error) {
	record, err := s.referencedProject(req, opDelete)
	if err != nil {
		return nil, err
	}

	reference := req.PathValue("reference")
	record.References = slices.DeleteFunc(record.References, func(r string) bool { return r == reference })

	if len(record.References) == 0 {
		record.References = nil
	}

	return replyNoContent(), nil
}

// referencedProject is the project of a reference operation the caller may perform:
// RBAC first (AllowProjectScopeID), then the project, which must exist.
func (s *Sandbox) referencedProject(req *request, operation string) (*projectRecord, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := forbidden(req.caller.acl.AllowProject(organizationID, projectID, rbacProjectReferences, operation)); err != nil {
		return nil, err
	}

	record := s.world.findProject(organizationID, projectID)
	if record == nil {
		return nil, errNotFound()
	}

	return record, nil
}
