// Package quotas is identity's quotas (pkg/handler/quotas): the quota kinds identity's
// chart declares, which every service's allocations are charged against (core's
// quota), an organization's quotas as identity reads them, and the platform
// administrator's update of them.
package quotas

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's quotas.
var Family = core.Family{Name: "quotas", Register: register}

const rbacQuotas = "identity:quotas"

// fileStorageQuota is identity's default `filestorage` quota, 1Ti, in bytes.
const fileStorageQuota = 1 << 40

// kinds are the quota kinds identity v1.18.1's chart declares (charts/identity/values.yaml,
// quotas), and floatingips, which compute charges an instance's public address to
// though no chart declares it: identity leaves a kind without a quota unlimited, and
// the sandbox's fixture organization has one, so that compute's charge shows.
var kinds = []core.QuotaKind{
	{Name: "networks", DisplayName: "Networks", Description: "Layer 3 networks.", Default: 5},
	{Name: "loadbalancers", DisplayName: "Load Balancers", Description: "Layer 4 load balancers.", Default: 5},
	{Name: "clusters", DisplayName: "Clusters", Description: "All cluster types e.g. Kubernetes, compute, etc.", Default: 5},
	{Name: "servers", DisplayName: "Servers", Description: "All physical and virtual machines.", Default: 10},
	{Name: "gpus", DisplayName: "GPUs", Description: "General purpose GPUs for AI workloads.", Default: 40},
	{Name: "publicips", DisplayName: "Public IPs", Description: "Public IP addresses.", Default: 5},
	{Name: "filestorage", DisplayName: "File Storage", Description: "Persistent network file storage.", Default: fileStorageQuota},
	{Name: "floatingips", DisplayName: "Floating IPs", Description: "A public IP address that can be attached to a server."},
}

func register(s *core.Server) error {
	s.QuotaKinds(kinds...)

	s.Handle("GET /api/v1/organizations/{organizationID}/quotas", get)
	s.Handle("PUT /api/v1/organizations/{organizationID}/quotas", set)

	s.Fixture(fixtures)

	return nil
}

// fixtures is the fixture organization's quota.
func fixtures(st *core.Store) error {
	core.SetQuotaLimits(st, fixture.OrganizationID, map[string]int{
		"servers": 10, "gpus": 2, "floatingips": 5, "publicips": 5, "networks": 5, "loadbalancers": 5, "filestorage": fileStorageQuota,
		"clusters": 5,
	})

	return nil
}

func get(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.RequireOrganization(req.Caller, organizationID, rbacQuotas, core.OpRead); err != nil {
		return nil, err
	}

	return core.OK(core.Quotas(req.Store, organizationID)), nil
}

// set is the platform administrator's quota update: listed kinds get the new quantity,
// others keep theirs. Identity asks every caller for the permission, which only the
// platform-administrator role grants; an organization's own administrator may read its
// quotas but not set them.
func set(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacQuotas, core.OpUpdate)); err != nil {
		return nil, err
	}

	var body unikorn.QuotasWrite
	if err := core.DecodeBody(req.Request, &body, "quotas", "quotas[].kind", "quotas[].quantity"); err != nil {
		return nil, err
	}

	limits := core.QuotaLimits(req.Store, organizationID)
	for _, quota := range body.Quotas {
		limits[quota.Kind] = quota.Quantity
	}

	core.SetQuotaLimits(req.Store, organizationID, limits)

	return core.OK(core.Quotas(req.Store, organizationID)), nil
}
