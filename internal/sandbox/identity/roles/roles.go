// Package roles is identity's roles (pkg/handler/roles): the roles identity's chart
// installs (chart.go), which groups grant and which every family's RBAC reads, as
// core.Role, and the list of those a caller could give a group.
package roles

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's roles.
var Family = core.Family{Name: "roles", Register: register}

const rbacRoles = "identity:roles"

func register(s *core.Server) error {
	core.ExposeCatalogue(s, func() []Role { return Roles }, func(r *Role) string { return r.ID }, core.View[Role, Role]{
		Show: func(r *Role) *Role { return r },
	})

	s.Handle("GET /api/v1/organizations/{organizationID}/roles", list)

	return nil
}

// list lists the roles the caller could give a group, as identity's pkg/handler/roles
// does: never a protected one, nor one granting what the caller does not hold itself
// (an auditor does not see administrator).
func list(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacRoles, core.OpRead)); err != nil {
		return nil, err
	}

	result := []unikorn.Role{}

	for _, role := range Roles {
		if role.Protected || req.Caller.ACL.AllowRole(organizationID, role) != nil {
			continue
		}

		metadata := core.ProvisionedMetadata(role.ID, role.Name)
		metadata.Description = role.Description
		result = append(result, unikorn.Role{Metadata: metadata})
	}

	return core.OK(result), nil
}
