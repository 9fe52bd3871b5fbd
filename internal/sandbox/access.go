package sandbox

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// RBAC endpoint names, as the real services name them in their ACLs.
const (
	rbacOrganizations  = "identity:organizations"
	rbacProjects       = "identity:projects"
	rbacQuotas         = "identity:quotas"
	rbacAllocations    = "identity:allocations"
	rbacGroups         = "identity:groups"
	rbacServiceAccount = "identity:serviceaccounts"
	rbacRoles          = "identity:roles"
	rbacUsers          = "identity:users"
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

// requireOrganization allows what the caller may do at organization scope. A legacy
// fixture principal needs only to belong to the organization; everyone else needs the
// permission. Everyone else is forbidden, whether or not the organization exists.
func requireOrganization(caller *principal, organizationID, endpoint, operation string) error {
	if caller.legacy {
		if !caller.isMember(organizationID) {
			return errRBAC(endpoint, operation, "organization")
		}

		return nil
	}

	return forbidden(caller.acl.AllowOrganization(organizationID, endpoint, operation))
}

// requireProject allows what the caller may do in a project: an outsider to the
// organization is forbidden, a project the organization does not have is not found.
// Creating anything in a project being deleted is refused, as identity refuses the
// reference that every service adds to a project it creates in.
func requireProject(w *world, caller *principal, organizationID, projectID, endpoint, operation string) error {
	if !caller.isMember(organizationID) {
		if caller.legacy {
			return errRBAC(endpoint, operation, "project")
		}

		return forbidden(caller.acl.AllowProject(organizationID, projectID, endpoint, operation))
	}

	project := w.findProject(organizationID, projectID)
	if project == nil {
		return errNotFound()
	}

	if err := allowInProject(caller, organizationID, projectID, endpoint, operation); err != nil {
		return err
	}

	if operation == opCreate && project.Project.Metadata.DeletionTime != nil {
		return errBadRequest("unable to add reference, resource is being deleted")
	}

	return nil
}

func allowInProject(caller *principal, organizationID, projectID, endpoint, operation string) error {
	if caller.legacy {
		if !caller.canUse(organizationID, projectID) {
			return errRBAC(endpoint, operation, "project")
		}

		return nil
	}

	return forbidden(caller.acl.AllowProject(organizationID, projectID, endpoint, operation))
}

// lookup finds a project-scoped record: not found when absent, forbidden when the
// caller may not act on it in the project it belongs to.
func lookup[R any](records map[string]*R, id string, caller *principal, metadataOf func(*R) *unikorn.ProjectScopedMetadata, endpoint, operation string) (*R, error) {
	record, ok := records[id]
	if !ok {
		return nil, errNotFound()
	}

	metadata := metadataOf(record)
	if err := allowInProject(caller, metadata.OrganizationID, metadata.ProjectID, endpoint, operation); err != nil {
		return nil, err
	}

	return record, nil
}
