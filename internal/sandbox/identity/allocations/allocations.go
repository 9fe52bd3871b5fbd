// Package allocations is identity's allocations (pkg/handler/allocations): what a
// service charges to its organization's quota for one of its objects, a
// service-to-service API. Every family's own charges are core's quota calls; this is
// the API through which a service that reaches identity over HTTP (compute) charges.
package allocations

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's allocations.
var Family = core.Family{Name: "allocations", Register: register}

const rbacAllocations = "identity:allocations"

func register(s *core.Server) error {
	const path = "/api/v1/organizations/{organizationID}/projects/{projectID}/allocations"

	s.HandleService(rbacAllocations, "POST "+path, create)
	s.HandleService(rbacAllocations, "GET "+path+"/{allocationID}", get)
	s.HandleService(rbacAllocations, "PUT "+path+"/{allocationID}", update)
	s.HandleService(rbacAllocations, "DELETE "+path+"/{allocationID}", remove)

	return nil
}

// required is the required part of identity `allocationWrite`.
var required = core.RequiredWith("spec", "spec.kind", "spec.id", "spec.allocations",
	"spec.allocations[].kind", "spec.allocations[].committed", "spec.allocations[].reserved")

func decode(req *core.Request) (unikorn.AllocationWrite, error) {
	var body unikorn.AllocationWrite
	if err := core.DecodeBody(req.Request, &body, required...); err != nil {
		return body, err
	}

	return body, core.ValidateWriteMetadata(body.Metadata)
}

func create(req *core.Request) (*core.Reply, error) {
	body, err := decode(req)
	if err != nil {
		return nil, err
	}

	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.RequireProject(req.Store, req.Caller, organizationID, projectID, rbacAllocations, core.OpCreate); err != nil {
		return nil, err
	}

	allocation, err := core.Allocate(req.Store, organizationID, projectID, body, req.Now)
	if err != nil {
		return nil, err
	}

	return core.Created(allocation), nil
}

// find finds an allocation of the project in the path.
func find(req *core.Request, operation string) (*unikorn.Allocation, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.RequireProject(req.Store, req.Caller, organizationID, projectID, rbacAllocations, operation); err != nil {
		return nil, err
	}

	allocation, ok := core.Allocations.Get(req.Store, req.PathValue("allocationID"))
	if !ok || allocation.Metadata.OrganizationID != organizationID || allocation.Metadata.ProjectID != projectID {
		return nil, core.NotFound()
	}

	return allocation, nil
}

func get(req *core.Request) (*core.Reply, error) {
	allocation, err := find(req, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(allocation), nil
}

// update replaces an allocation; over quota it is left as it was.
func update(req *core.Request) (*core.Reply, error) {
	body, err := decode(req)
	if err != nil {
		return nil, err
	}

	allocation, err := find(req, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	updated := core.CopyAllocation(allocation)
	core.RewriteMetadata(&updated.Metadata.ReadMetadata, body.Metadata, req.Now)
	updated.Spec = body.Spec

	if err := core.CheckQuota(req.Store, &updated); err != nil {
		return nil, err
	}

	core.Allocations.Put(req.Store, updated.Metadata.ID, &updated)

	return core.OK(updated), nil
}

func remove(req *core.Request) (*core.Reply, error) {
	allocation, err := find(req, core.OpDelete)
	if err != nil {
		return nil, err
	}

	core.Allocations.Delete(req.Store, allocation.Metadata.ID)

	return core.Accepted(nil), nil
}
