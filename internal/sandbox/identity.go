package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (s *Sandbox) listOrganizations(req *core.Request) (*core.Reply, error) {
	result := []unikorn.Organization{}

	for _, organization := range s.world.organizationsByCatalogue() {
		if req.Caller.IsMember(organization.Metadata.ID) {
			result = append(result, *organization)
		}
	}

	return replyOK(result), nil
}

func (s *Sandbox) getOrganization(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("organizationID")

	if err := requireOrganization(req.Caller, id, rbacOrganizations, opRead); err != nil {
		return nil, err
	}

	organization, ok := s.world.Organizations[id]
	if !ok {
		return nil, errNotFound()
	}

	return replyOK(organization), nil
}

func (s *Sandbox) getQuotas(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := requireOrganization(req.Caller, organizationID, rbacQuotas, opRead); err != nil {
		return nil, err
	}

	return replyOK(core.Quotas(req.Store, organizationID)), nil
}

// setQuotas is the platform administrator's quota update: listed kinds get the new
// quantity, others keep theirs. Identity asks every caller for the permission, which
// only the platform-administrator role grants; an organization's own administrator
// may read its quotas but not set them.
func (s *Sandbox) setQuotas(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacQuotas, opUpdate)); err != nil {
		return nil, err
	}

	var body unikorn.QuotasWrite
	if err := decodeBody(req.Request, &body, "quotas", "quotas[].kind", "quotas[].quantity"); err != nil {
		return nil, err
	}

	limits := core.QuotaLimits(req.Store, organizationID)
	for _, quota := range body.Quotas {
		limits[quota.Kind] = quota.Quantity
	}

	core.SetQuotaLimits(req.Store, organizationID, limits)

	return replyOK(core.Quotas(req.Store, organizationID)), nil
}

// allocationRequired is the required part of identity `allocationWrite`.
var allocationRequired = requiredWith("spec", "spec.kind", "spec.id", "spec.allocations",
	"spec.allocations[].kind", "spec.allocations[].committed", "spec.allocations[].reserved")

func decodeAllocation(req *core.Request) (unikorn.AllocationWrite, error) {
	var body unikorn.AllocationWrite
	if err := decodeBody(req.Request, &body, allocationRequired...); err != nil {
		return body, err
	}

	return body, validateWriteMetadata(body.Metadata)
}

func (s *Sandbox) createAllocation(req *core.Request) (*core.Reply, error) {
	body, err := decodeAllocation(req)
	if err != nil {
		return nil, err
	}

	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.RequireProject(req.Store, req.Caller, organizationID, projectID, rbacAllocations, opCreate); err != nil {
		return nil, err
	}

	allocation, err := core.Allocate(req.Store, organizationID, projectID, body, req.Now)
	if err != nil {
		return nil, err
	}

	return replyCreated(allocation), nil
}

// findAllocation finds an allocation of the project in the path.
func (s *Sandbox) findAllocation(req *core.Request, operation string) (*unikorn.Allocation, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.RequireProject(req.Store, req.Caller, organizationID, projectID, rbacAllocations, operation); err != nil {
		return nil, err
	}

	allocation, ok := s.world.Allocations[req.PathValue("allocationID")]
	if !ok || allocation.Metadata.OrganizationID != organizationID || allocation.Metadata.ProjectID != projectID {
		return nil, errNotFound()
	}

	return allocation, nil
}

func (s *Sandbox) getAllocation(req *core.Request) (*core.Reply, error) {
	allocation, err := s.findAllocation(req, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(allocation), nil
}

// updateAllocation replaces an allocation; over quota it is left as it was.
func (s *Sandbox) updateAllocation(req *core.Request) (*core.Reply, error) {
	body, err := decodeAllocation(req)
	if err != nil {
		return nil, err
	}

	allocation, err := s.findAllocation(req, opUpdate)
	if err != nil {
		return nil, err
	}

	updated := copyAllocation(allocation)
	rewriteMetadata(&updated.Metadata.ReadMetadata, body.Metadata, req.Now)
	updated.Spec = body.Spec

	if err := core.CheckQuota(req.Store, &updated); err != nil {
		return nil, err
	}

	s.world.Allocations[updated.Metadata.ID] = &updated

	return replyOK(updated), nil
}

func (s *Sandbox) deleteAllocation(req *core.Request) (*core.Reply, error) {
	allocation, err := s.findAllocation(req, opDelete)
	if err != nil {
		return nil, err
	}

	delete(s.world.Allocations, allocation.Metadata.ID)

	return replyAccepted(nil), nil
}
