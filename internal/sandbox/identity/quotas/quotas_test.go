package quotas_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	identityquotas "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/quotas"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestQuotasAreTheFixtureAndSortedByKind(t *testing.T) {
	h := sandboxtest.New(t)

	var quotas unikorn.Quotas

	h.Call(http.MethodGet, sandboxtest.OrganizationPath("/quotas"), nil).Expect(http.StatusOK, &quotas)

	kinds := map[string]int{}
	order := []string{}

	for _, quota := range quotas.Quotas {
		kinds[quota.Kind] = quota.Quantity
		order = append(order, quota.Kind)
		assert.Equal(t, quota.Quantity-quota.Used, quota.Free)
	}

	assert.Equal(t, map[string]int{
		"servers": 10, "gpus": 2, "floatingips": 5, "publicips": 5, "networks": 5, "loadbalancers": 5, "filestorage": identityquotas.FileStorageQuota,
		"clusters": 5,
	}, kinds)
	assert.IsIncreasing(t, order)
	assert.Equal(t, 3, h.Quota("networks").Used, "the fixture networks")
}

func TestSettingQuotasChangesTheLimit(t *testing.T) {
	h := sandboxtest.New(t)

	var quotas unikorn.Quotas

	write := unikorn.QuotasWrite{Quotas: []unikorn.QuotaWrite{{Kind: "gpus", Quantity: 8}}}

	// Only a platform administrator sets quotas: neither a user, nor the organization's
	// administrator, nor a service.
	for _, token := range []string{sandbox.DefaultToken, sandbox.AdminToken, sandbox.ServiceToken} {
		h.CallAs(token, http.MethodPut, sandboxtest.OrganizationPath("/quotas"), write).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	}

	h.CallAs(sandbox.PlatformAdminToken, http.MethodPut, sandboxtest.OrganizationPath("/quotas"), write).Expect(http.StatusOK, &quotas)
	assert.Equal(t, 8, h.Quota("gpus").Quantity)
	assert.Equal(t, 10, h.Quota("servers").Quantity, "kinds not listed keep their quantity")

	h.Call(http.MethodPost, sandboxtest.AllocationsPath(sandbox.ProjectID), sandboxtest.InstanceAllocation("big", 8, 0)).Expect(http.StatusCreated, nil)
}
