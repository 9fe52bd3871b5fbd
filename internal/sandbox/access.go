package sandbox

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// RBAC endpoint names, as the real services name them in their ACLs.
const (
	rbacOrganizations  = "identity:organizations"
	rbacProjects       = "identity:projects"
	rbacQuotas         = "identity:quotas"
	rbacAllocations    = "identity:allocations"
	rbacRegions        = "region:regions"
	rbacFlavors        = "region:flavors"
	rbacImages         = "region:images"
	rbacNetworks       = "region:networks:v2"
	rbacSecurityGroups = "region:securitygroups:v2"
	rbacSSHCAs         = "region:sshcertificateauthorities:v2"
	rbacLoadBalancers  = "region:loadbalancers:v2"
	rbacServers        = "region:servers"
)

// RBAC operations.
const (
	opCreate = "create"
	opRead   = "read"
	opUpdate = "update"
	opDelete = "delete"
)

// requireOrganization allows members of the organization; everyone else is forbidden,
// whether or not the organization exists.
func requireOrganization(caller *principal, organizationID, endpoint, operation string) error {
	if !caller.isMember(organizationID) {
		return errRBAC(endpoint, operation)
	}

	return nil
}

// requireProject allows users of the project: an outsider to the organization is
// forbidden, a project the organization does not have is not found.
func requireProject(caller *principal, organizationID, projectID, endpoint, operation string) error {
	if err := requireOrganization(caller, organizationID, endpoint, operation); err != nil {
		return err
	}

	if findProject(organizationID, projectID) == nil {
		return errNotFound()
	}

	if !caller.canUse(organizationID, projectID) {
		return errRBAC(endpoint, operation)
	}

	return nil
}

// lookup finds a project-scoped record: not found when absent, forbidden when the
// caller may not use the project it belongs to.
func lookup[R any](records map[string]*R, id string, caller *principal, metadataOf func(*R) *unikorn.ProjectScopedMetadata, endpoint, operation string) (*R, error) {
	record, ok := records[id]
	if !ok {
		return nil, errNotFound()
	}

	metadata := metadataOf(record)
	if !caller.canUse(metadata.OrganizationID, metadata.ProjectID) {
		return nil, errRBAC(endpoint, operation)
	}

	return record, nil
}
