package sandbox

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (s *Sandbox) listOrganizations(req *request) (*reply, error) {
	result := []unikorn.Organization{}

	for _, organization := range s.world.organizationsByCatalogue() {
		if req.caller.isMember(organization.Metadata.ID) {
			result = append(result, *organization)
		}
	}

	return replyOK(result), nil
}

func (s *Sandbox) getOrganization(req *request) (*reply, error) {
	id := req.PathValue("organizationID")

	if err := requireOrganization(req.caller, id, rbacOrganizations, opRead); err != nil {
		return nil, err
	}

	organization, ok := s.world.Organizations[id]
	if !ok {
		return nil, errNotFound()
	}

	return replyOK(organization), nil
}

func (s *Sandbox) getQuotas(req *request) (*reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := requireOrganization(req.caller, organizationID, rbacQuotas, opRead); err != nil {
		return nil, err
	}

	return replyOK(s.world.quotas(organizationID)), nil
}

// setQuotas is the platform administrator's quota update: listed kinds get the new
// quantity, others keep theirs. Identity asks every caller for the permission, which
// only the platform-administrator role grants; an organization's own administrator
// may read its quotas but not set them.
func (s *Sandbox) setQuotas(req *request) (*reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.caller.acl.AllowOrganization(organizationID, rbacQuotas, opUpdate)); err != nil {
		return nil, err
	}

	var body unikorn.QuotasWrite
	if err := decodeBody(req.Request, &body, "quotas", "quotas[].kind", "quotas[].quantity"); err != nil {
		return nil, err
	}

	limits := s.world.quotaLimits(organizationID)
	for _, quota := range body.Quotas {
		limits[quota.Kind] = quota.Quantity
	}

	s.world.Quotas[organizationID] = limits

	return replyOK(s.world.quotas(organizationID)), nil
}

// allocationRequired is the required part of identity `allocationWrite`.
var allocationRequired = requiredWith("spec", "spec.kind", "spec.id", "spec.allocations",
	"spec.allocations[].kind", "spec.allocations[].committed", "spec.allocations[].reserved")

func decodeAllocation(req *request) (unikorn.AllocationWrite, error) {
	var body unikorn.AllocationWrite
	if err := decodeBody(req.Request, &body, allocationRequired...); err != nil {
		return body, err
	}

	return body, validateWriteMetadata(body.Metadata)
}

func (s *Sandbox) createAllocation(req *request) (*reply, error) {
	body, err := decodeAllocation(req)
	if err != nil {
		return nil, err
	}

	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := requireProject(s.world, req.caller, organizationID, projectID, rbacAllocations, opCreate); err != nil {
		return nil, err
	}

	allocation, err := s.world.allocate(organizationID, projectID, body, req.now)
	if err != nil {
		return nil, err
	}

	return replyCreated(allocation), nil
}

// findAllocation finds an allocation of the project in the path.
func (s *Sandbox) findAllocation(req *request, operation string) (*unikorn.Allocation, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := requireProject(s.world, req.caller, organizationID, projectID, rbacAllocations, operation); err != nil {
		return nil, err
	}

	allocation, ok := s.world.Allocations[req.PathValue("allocationID")]
	if !ok || allocation.Metadata.OrganizationID != organizationID || allocation.Metadata.ProjectID != projectID {
		return nil, errNotFound()
	}

	return allocation, nil
}

func (s *Sandbox) getAllocation(req *request) (*reply, error) {
	allocation, err := s.findAllocation(req, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(allocation), nil
}

// updateAllocation replaces an allocation; over quota it is left as it was.
func (s *Sandbox) updateAllocation(req *request) (*reply, error) {
	body, err := decodeAllocation(req)
	if err != nil {
		return nil, err
	}

	allocation, err := s.findAllocation(req, opUpdate)
	if err != nil {
		return nil, err
	}

	updated := copyAllocation(allocation)
	rewriteMetadata(&updated.Metadata.ReadMetadata, body.Metadata, req.now)
	updated.Spec = body.Spec

	if err := s.world.checkQuota(&updated); err != nil {
		return nil, err
	}

	s.world.Allocations[updated.Metadata.ID] = &updated

	return replyOK(updated), nil
}

func (s *Sandbox) deleteAllocation(req *request) (*reply, error) {
	allocation, err := s.findAllocation(req, opDelete)
	if err != nil {
		return nil, err
	}

	delete(s.world.Allocations, allocation.Metadata.ID)

	return replyAccepted(nil), nil
}

// allocate charges a new allocation to the organization's quota: 403, and nothing
// stored, when it does not fit.
func (w *world) allocate(organizationID, projectID string, write unikorn.AllocationWrite, now time.Time) (*unikorn.Allocation, error) {
	metadata := projectMetadata(newResourceID(), write.Metadata, organizationID, projectID, now)
	// Allocations have no controller: they are settled the moment they exist.
	applyProvisioning(&metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

	allocation := &unikorn.Allocation{Metadata: metadata, Spec: write.Spec}

	if err := w.checkQuota(allocation); err != nil {
		return nil, err
	}

	w.Allocations[allocation.Metadata.ID] = allocation

	return allocation, nil
}

// checkQuota totals committed and reserved amounts over every allocation of the
// organization, with candidate in place of any stored allocation of the same ID, and
// forbids the candidate if any kind that has a quota would exceed it. Kinds without a
// quota are never limited. The world lock serializes these decisions.
func (w *world) checkQuota(candidate *unikorn.Allocation) error {
	organizationID := candidate.Metadata.OrganizationID
	totals := map[string]int{}

	for id, allocation := range w.Allocations {
		if id != candidate.Metadata.ID && allocation.Metadata.OrganizationID == organizationID {
			addAllocation(totals, allocation)
		}
	}

	addAllocation(totals, candidate)

	limits := w.quotaLimits(organizationID)

	kinds := make([]string, 0, len(limits))
	for kind := range limits {
		kinds = append(kinds, kind)
	}

	sort.Strings(kinds)

	for _, kind := range kinds {
		if totals[kind] > limits[kind] {
			return errForbidden("total %s allocation of %d would exceed quota limit of %d", kind, totals[kind], limits[kind])
		}
	}

	return nil
}

func addAllocation(totals map[string]int, allocation *unikorn.Allocation) {
	for _, line := range allocation.Spec.Allocations {
		totals[line.Kind] += line.Committed + line.Reserved
	}
}

// quotaLimits returns a copy of the organization's quantities by kind. An
// organization without a quota object gets identity's defaults.
func (w *world) quotaLimits(organizationID string) map[string]int {
	limits := map[string]int{}

	if stored, ok := w.Quotas[organizationID]; ok {
		for kind, quantity := range stored {
			limits[kind] = quantity
		}

		return limits
	}

	for kind, meta := range quotaKinds {
		if meta.defaultQuantity > 0 {
			limits[kind] = meta.defaultQuantity
		}
	}

	return limits
}

// overrideQuotas sets the organization's quantities of the given kinds. Only kinds
// identity knows are accepted, so that a misspelt kind is not silently unlimited.
func (w *world) overrideQuotas(organizationID string, quantities map[string]int) error {
	if len(quantities) == 0 {
		return nil
	}

	limits := w.quotaLimits(organizationID)

	for kind, quantity := range quantities {
		if _, known := quotaKinds[kind]; !known {
			return fmt.Errorf("quota kind %q is not one of %s", kind, strings.Join(slices.Sorted(maps.Keys(quotaKinds)), ", "))
		}

		if quantity < 0 {
			return fmt.Errorf("quota of %s is %d: a quantity is 0 or more", kind, quantity)
		}

		limits[kind] = quantity
	}

	w.Quotas[organizationID] = limits

	return nil
}

// quotas is identity `quotasRead` for an organization, sorted by kind.
func (w *world) quotas(organizationID string) unikorn.Quotas {
	committed, reserved := map[string]int{}, map[string]int{}

	for _, allocation := range w.Allocations {
		if allocation.Metadata.OrganizationID != organizationID {
			continue
		}

		for _, line := range allocation.Spec.Allocations {
			committed[line.Kind] += line.Committed
			reserved[line.Kind] += line.Reserved
		}
	}

	result := unikorn.Quotas{Quotas: []unikorn.Quota{}}

	for kind, quantity := range w.quotaLimits(organizationID) {
		meta, known := quotaKinds[kind]
		if !known {
			meta = quotaKind{displayName: kind}
		}

		used := committed[kind] + reserved[kind]

		result.Quotas = append(result.Quotas, unikorn.Quota{
			Kind:        kind,
			Quantity:    quantity,
			Used:        used,
			Free:        quantity - used,
			Committed:   committed[kind],
			Reserved:    reserved[kind],
			DisplayName: meta.displayName,
			Description: meta.description,
			Default:     meta.defaultQuantity,
		})
	}

	slices.SortFunc(result.Quotas, func(a, b unikorn.Quota) int {
		return strings.Compare(a.Kind, b.Kind)
	})

	return result
}

// copyAllocation deep-copies an allocation so that the copy shares no slices.
func copyAllocation(allocation *unikorn.Allocation) unikorn.Allocation {
	out := *allocation
	out.Metadata.Tags = slices.Clone(allocation.Metadata.Tags)
	out.Spec.Allocations = slices.Clone(allocation.Spec.Allocations)

	if allocation.Metadata.ModifiedTime != nil {
		modified := *allocation.Metadata.ModifiedTime
		out.Metadata.ModifiedTime = &modified
	}

	return out
}

// newResourceID draws a random ID whose first character is a letter, because Unikorn
// IDs double as Kubernetes names, which must not start with a digit.
func newResourceID() string {
	for {
		id := uuid.NewString()
		if id[0] >= 'a' {
			return id
		}
	}
}
