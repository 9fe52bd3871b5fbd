package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const instanceAllocationKind = "computeinstances.compute.unikorn-cloud.org"

func instanceAllocation(id string, gpus, floatingIPs int) unikorn.AllocationWrite {
	return unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{
			Kind: instanceAllocationKind,
			ID:   id,
			Allocations: []unikorn.ResourceAllocation{
				{Kind: "servers", Committed: 1},
				{Kind: "gpus", Committed: gpus},
				{Kind: "floatingips", Committed: floatingIPs},
			},
		},
	}
}

func (h *harness) quota(kind string) unikorn.Quota {
	h.t.Helper()

	var quotas unikorn.Quotas

	h.call(http.MethodGet, organizationPath("/quotas"), nil).expect(http.StatusOK, &quotas)

	for _, quota := range quotas.Quotas {
		if quota.Kind == kind {
			return quota
		}
	}

	h.t.Fatalf("no quota of kind %s", kind)

	return unikorn.Quota{}
}

func TestOrganizationsAndProjects(t *testing.T) {
	h := newHarness(t)

	var organizations []unikorn.Organization

	h.callAs(DefaultToken, http.MethodGet, "/api/v1/organizations", nil).expect(http.StatusOK, &organizations)
	require.Len(t, organizations, 1)
	assert.Equal(t, "sandbox", organizations[0].Metadata.Name)

	var organization unikorn.Organization

	h.call(http.MethodGet, organizationPath(""), nil).expect(http.StatusOK, &organization)
	assert.Equal(t, OrganizationID, organization.Metadata.ID)

	var projects []unikorn.Project

	h.call(http.MethodGet, organizationPath("/projects"), nil).expect(http.StatusOK, &projects)
	require.Len(t, projects, 2)
	assert.Equal(t, "sandbox-project", projects[0].Metadata.Name)
	assert.Equal(t, "other-project", projects[1].Metadata.Name)

	var project unikorn.Project

	h.call(http.MethodGet, organizationPath("/projects/"+OtherProjectID), nil).expect(http.StatusOK, &project)
	assert.Equal(t, OrganizationID, project.Metadata.OrganizationID)

	h.call(http.MethodGet, organizationPath("/projects/a0000000-0000-4000-8000-0000000000ff"), nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.call(http.MethodGet, "/api/v1/organizations/a0000000-0000-4000-8000-0000000000ff", nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
}

func TestQuotasAreTheFixtureAndSortedByKind(t *testing.T) {
	h := newHarness(t)

	var quotas unikorn.Quotas

	h.call(http.MethodGet, organizationPath("/quotas"), nil).expect(http.StatusOK, &quotas)

	kinds := map[string]int{}
	order := []string{}

	for _, quota := range quotas.Quotas {
		kinds[quota.Kind] = quota.Quantity
		order = append(order, quota.Kind)
		assert.Equal(t, quota.Quantity-quota.Used, quota.Free)
	}

	assert.Equal(t, map[string]int{
		"servers": 10, "gpus": 2, "floatingips": 5, "publicips": 5, "networks": 5, "loadbalancers": 5, "filestorage": fileStorageQuota,
	}, kinds)
	assert.IsIncreasing(t, order)
	assert.Equal(t, 3, h.quota("networks").Used, "the fixture networks")
}

func TestAllocationsEnforceTheQuota(t *testing.T) {
	h := newHarness(t)

	var first, second unikorn.Allocation

	h.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation("i-1", 1, 1)).expect(http.StatusCreated, &first)
	assert.Equal(t, ProjectID, first.Metadata.ProjectID)
	assert.Equal(t, instanceAllocationKind, first.Spec.Kind)

	h.call(http.MethodPost, allocationsPath(OtherProjectID), instanceAllocation("i-2", 1, 0)).expect(http.StatusCreated, &second)

	// Quotas are organization wide: the third GPU does not fit anywhere.
	body := h.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation("i-3", 1, 0)).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total gpus allocation of 3 would exceed quota limit of 2", body.ErrorDescription)

	gpus := h.quota("gpus")
	assert.Equal(t, 2, gpus.Used)
	assert.Equal(t, 2, gpus.Committed)
	assert.Zero(t, gpus.Free)

	// Kinds without a quota are never limited.
	unlimited := instanceAllocation("i-4", 0, 0)
	unlimited.Spec.Allocations = append(unlimited.Spec.Allocations, unikorn.ResourceAllocation{Kind: "clusters", Committed: 1000})
	h.call(http.MethodPost, allocationsPath(ProjectID), unlimited).expect(http.StatusCreated, nil)

	// An update over quota is refused and leaves the allocation as it was.
	firstPath := allocationsPath(ProjectID) + "/" + first.Metadata.ID
	body = h.call(http.MethodPut, firstPath, instanceAllocation("i-1", 2, 1)).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total gpus allocation of 3 would exceed quota limit of 2", body.ErrorDescription)

	var unchanged unikorn.Allocation

	h.call(http.MethodGet, firstPath, nil).expect(http.StatusOK, &unchanged)
	assert.Equal(t, first.Spec, unchanged.Spec)

	// An update within quota replaces it.
	var updated unikorn.Allocation

	h.call(http.MethodPut, firstPath, instanceAllocation("i-1", 1, 0)).expect(http.StatusOK, &updated)
	assert.Equal(t, first.Metadata.ID, updated.Metadata.ID)
	assert.Equal(t, 0, updated.Spec.Allocations[2].Committed)
	assert.Equal(t, 0, h.quota("floatingips").Used)

	h.call(http.MethodDelete, firstPath, nil).expect(http.StatusAccepted, nil)
	h.call(http.MethodGet, firstPath, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.call(http.MethodDelete, firstPath, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Equal(t, 1, h.quota("gpus").Used)

	// The administrator's view sees every project's allocations.
	ids := map[string]bool{}
	for _, allocation := range h.sb.Allocations() {
		ids[allocation.Metadata.ID] = true
	}

	assert.True(t, ids[second.Metadata.ID])
	assert.False(t, ids[first.Metadata.ID])
}

func TestAllocationIsScopedToItsProject(t *testing.T) {
	h := newHarness(t)

	var allocation unikorn.Allocation

	h.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation("i-1", 0, 0)).expect(http.StatusCreated, &allocation)
	h.call(http.MethodGet, allocationsPath(OtherProjectID)+"/"+allocation.Metadata.ID, nil).expectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.call(http.MethodPost, allocationsPath("a0000000-0000-4000-8000-0000000000ff"), instanceAllocation("i-2", 0, 0)).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAs(OutsiderToken, http.MethodPost, allocationsPath(ProjectID), instanceAllocation("i-3", 0, 0)).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	missing := `{"metadata":{"name":"undefined"},"spec":{"kind":"x","id":"y","allocations":[{"kind":"servers","committed":1}]}}`
	h.call(http.MethodPost, allocationsPath(ProjectID), missing).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}

func TestSettingQuotasChangesTheLimit(t *testing.T) {
	h := newHarness(t)

	var quotas unikorn.Quotas

	write := unikorn.QuotasWrite{Quotas: []unikorn.QuotaWrite{{Kind: "gpus", Quantity: 8}}}

	// Only a platform administrator sets quotas: neither a user, nor the organization's
	// administrator, nor a service.
	for _, token := range []string{DefaultToken, AdminToken, ServiceToken} {
		h.callAs(token, http.MethodPut, organizationPath("/quotas"), write).expectError(http.StatusForbidden, unikorn.ErrorForbidden)
	}

	h.callAs(PlatformAdminToken, http.MethodPut, organizationPath("/quotas"), write).expect(http.StatusOK, &quotas)
	assert.Equal(t, 8, h.quota("gpus").Quantity)
	assert.Equal(t, 10, h.quota("servers").Quantity, "kinds not listed keep their quantity")

	h.call(http.MethodPost, allocationsPath(ProjectID), instanceAllocation("big", 8, 0)).expect(http.StatusCreated, nil)
}
