package allocations_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestAllocationsEnforceTheQuota(t *testing.T) {
	h := sandboxtest.New(t)

	var first, second unikorn.Allocation

	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("i-1", 1, 1)).Expect(http.StatusCreated, &first)
	assert.Equal(t, sandbox.ProjectID, first.Metadata.ProjectID)
	assert.Equal(t, sandboxtest.InstanceAllocationKind, first.Spec.Kind)

	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.OtherProjectID), sandboxtest.InstanceAllocation("i-2", 1, 0)).Expect(http.StatusCreated, &second)

	// Quotas are organization wide: the third GPU does not fit anywhere.
	body := h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("i-3", 1, 0)).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total gpus allocation of 3 would exceed quota limit of 2", body.ErrorDescription)

	gpus := h.Quota("gpus")
	assert.Equal(t, 2, gpus.Used)
	assert.Equal(t, 2, gpus.Committed)
	assert.Zero(t, gpus.Free)

	// Kinds without a quota are never limited (clusters, which this once charged, has
	// one since the fixture quota follows identity's chart).
	unlimited := sandboxtest.InstanceAllocation("i-4", 0, 0)
	unlimited.Spec.Allocations = append(unlimited.Spec.Allocations, unikorn.ResourceAllocation{Kind: "widgets", Committed: 1000})
	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), unlimited).Expect(http.StatusCreated, nil)

	// An update over quota is refused and leaves the allocation as it was.
	firstPath := sandboxtest.AllocationsPath(sandbox.ProjectID) + "/" + first.Metadata.ID
	body = h.Call(http.MethodPut, firstPath, sandboxtest.InstanceAllocation("i-1", 2, 1)).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	assert.Equal(t, "total gpus allocation of 3 would exceed quota limit of 2", body.ErrorDescription)

	var unchanged unikorn.Allocation

	h.Call(http.MethodGet, firstPath, nil).Expect(http.StatusOK, &unchanged)
	assert.Equal(t, first.Spec, unchanged.Spec)

	// An update within quota replaces it.
	var updated unikorn.Allocation

	h.Call(http.MethodPut, firstPath, sandboxtest.InstanceAllocation("i-1", 1, 0)).Expect(http.StatusOK, &updated)
	assert.Equal(t, first.Metadata.ID, updated.Metadata.ID)
	assert.Equal(t, 0, updated.Spec.Allocations[2].Committed)
	assert.Equal(t, 0, h.Quota("floatingips").Used)

	h.Call(http.MethodDelete, firstPath, nil).Expect(http.StatusAccepted, nil)
	h.Call(http.MethodGet, firstPath, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.Call(http.MethodDelete, firstPath, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	assert.Equal(t, 1, h.Quota("gpus").Used)

	// The administrator's view sees every project's allocations.
	ids := map[string]bool{}
	for _, allocation := range h.Sandbox.Allocations() {
		ids[allocation.Metadata.ID] = true
	}

	assert.True(t, ids[second.Metadata.ID])
	assert.False(t, ids[first.Metadata.ID])
}

func TestAllocationIsScopedToItsProject(t *testing.T) {
	h := sandboxtest.New(t)

	var allocation unikorn.Allocation

	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("i-1", 0, 0)).Expect(http.StatusCreated, &allocation)
	h.Call(http.MethodGet, sandboxtest.AllocationsPath(sandbox.OtherProjectID)+"/"+allocation.Metadata.ID, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)

	h.Call(http.MethodPost, sandboxtest.AllocationsPath("a0000000-0000-4000-8000-0000000000ff"), sandboxtest.InstanceAllocation("i-2", 0, 0)).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAs(sandbox.OutsiderToken, http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("i-3", 0, 0)).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	missing := `{"metadata":{"name":"undefined"},"spec":{"kind":"x","id":"y","allocations":[{"kind":"servers","committed":1}]}}`
	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), missing).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}
