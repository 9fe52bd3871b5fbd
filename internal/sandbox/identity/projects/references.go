package projects

import (
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// rbacReferences is the endpoint of identity's project references, which only the
// services' roles grant (region-service, kubernetes-service, storage-service).
const rbacReferences = "identity:projects/references"

// addReference is identity's PUT .../projects/{projectID}/references/{reference}: a
// service that made something in the project holds the project's deletion until it
// releases the reference (identity v1.18.1 pkg/handler/projects ReferenceCreate, which
// keeps it as a finalizer). Idempotent; refused on a project being deleted.
func addReference(req *core.Request) (*core.Reply, error) {
	record, err := referenced(req, core.OpCreate)
	if err != nil {
		return nil, err
	}

	if record.Project.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("unable to add reference, resource is being deleted")
	}

	if reference := req.PathValue("reference"); !slices.Contains(record.References, reference) {
		record.References = append(record.References, reference)
	}

	return core.Created(nil), nil
}

// removeReference is identity's DELETE of a reference: 204 whether or not the project
// held it.
func removeReference(req *core.Request) (*core.Reply, error) {
	record, err := referenced(req, core.OpDelete)
	if err != nil {
		return nil, err
	}

	reference := req.PathValue("reference")
	record.References = slices.DeleteFunc(record.References, func(r string) bool { return r == reference })

	if len(record.References) == 0 {
		record.References = nil
	}

	return core.NoContent(), nil
}

// referenced is the project of a reference operation the caller may perform: RBAC
// first (AllowProjectScopeID), then the project, which must exist.
func referenced(req *core.Request, operation string) (*record, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.Forbid(req.Caller.ACL.AllowProject(organizationID, projectID, rbacReferences, operation)); err != nil {
		return nil, err
	}

	record, ok := find(req.Store, organizationID, projectID)
	if !ok {
		return nil, core.NotFound()
	}

	return record, nil
}

// references are the projects' references as holders: a project being deleted waits
// for them as for any holder.
func references(st *core.Store) []core.Reference {
	var held []core.Reference

	for id, record := range projects.Records(st) {
		for _, reference := range record.References {
			held = append(held, core.Reference{
				Holder: core.Holder{Noun: "reference", ID: reference},
				Held:   core.RefTo[unikorn.Project](id),
			})
		}
	}

	return held
}
