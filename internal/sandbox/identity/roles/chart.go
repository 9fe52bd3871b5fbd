package roles

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
)

// Role is one of the roles identity's chart installs.
type Role = core.Role

// Scope maps an endpoint name to the operations granted on it.
type Scope = core.Scope

// RBAC operations.
const (
	Create = core.OpCreate
	Read   = core.OpRead
	Update = core.OpUpdate
	Delete = core.OpDelete
)

// The roles' IDs: the chart derives its IDs from the names; these stand for them.
const (
	AdministratorRoleID         = fixture.AdministratorRoleID
	AuditorRoleID               = fixture.AuditorRoleID
	UserRoleID                  = fixture.UserRoleID
	ReaderRoleID                = fixture.ReaderRoleID
	PlatformAdministratorRoleID = fixture.PlatformAdministratorRoleID
	ComputeServiceRoleID        = fixture.ComputeServiceRoleID
	RegionServiceRoleID         = fixture.RegionServiceRoleID
	KubernetesServiceRoleID     = fixture.KubernetesServiceRoleID
	StorageServiceRoleID        = fixture.StorageServiceRoleID
)

var (
	crud       = []string{Create, Read, Update, Delete}
	read       = []string{Read}
	createRead = []string{Create, Read, Delete}
)

// Roles are the roles identity v1.18.1's chart installs (charts/identity/values.yaml,
// roles), in name order, scope for scope as it writes them: the organization's and
// project's roles a group gives, and the protected ones of the platform
// administrators and of the services' system accounts (region-service,
// kubernetes-service, compute-service, storage-service, which the chart names by
// their client certificates). Three of the latter have no description: the chart
// spells the key "decription", and its template writes none.
var Roles = []Role{
	{
		ID: AdministratorRoleID, Name: "administrator", Description: "Organization administrator",
		Organization: Scope{
			"identity:organizations":                    {Read, Update},
			"identity:oauth2providers":                  crud,
			"identity:serviceaccounts":                  crud,
			"identity:users":                            crud,
			"identity:roles":                            crud,
			"identity:groups":                           crud,
			"identity:projects":                         crud,
			"identity:quotas":                           read,
			"region:regions":                            read,
			"region:networks:v2":                        crud,
			"region:loadbalancers:v2":                   crud,
			"region:volumes:v2":                         crud,
			"region:filestorage:v2":                     crud,
			"region:filestorageclass:v2":                read,
			"region:volumeclasses:v2":                   read,
			"storage:objectstorageclasses":              read,
			"storage:objectstorageendpoints":            crud,
			"storage:objectstorageendpoints/accesskeys": crud,
			"region:flavors":                            read,
			"region:images":                             createRead,
			"region:securitygroups:v2":                  crud,
			"region:sshcertificateauthorities:v2":       createRead,
			"kubernetes:regions":                        read,
			"kubernetes:flavors":                        read,
			"kubernetes:images":                         read,
			"kubernetes:clusters":                       crud,
			"kubernetes:virtualclusters":                crud,
			"compute:regions":                           read,
			"compute:flavors":                           read,
			"compute:images":                            read,
			"compute:instances":                         crud,
			"compute:clusters":                          crud,
		},
	},
	{
		ID: AuditorRoleID, Name: "auditor", Description: "Organization auditor",
		Organization: Scope{
			"identity:organizations":                    read,
			"identity:oauth2providers":                  read,
			"identity:serviceaccounts":                  read,
			"identity:users":                            read,
			"identity:roles":                            read,
			"identity:groups":                           read,
			"identity:projects":                         read,
			"identity:quotas":                           read,
			"region:regions":                            read,
			"region:networks:v2":                        read,
			"region:loadbalancers:v2":                   read,
			"region:volumes:v2":                         read,
			"region:filestorage:v2":                     read,
			"region:filestorageclass:v2":                read,
			"region:volumeclasses:v2":                   read,
			"storage:objectstorageclasses":              read,
			"storage:objectstorageendpoints":            read,
			"storage:objectstorageendpoints/accesskeys": read,
			"region:flavors":                            read,
			"region:images":                             read,
			"region:securitygroups:v2":                  read,
			"region:sshcertificateauthorities:v2":       read,
			"kubernetes:regions":                        read,
			"kubernetes:flavors":                        read,
			"kubernetes:images":                         read,
			"kubernetes:clusters":                       read,
			"kubernetes:virtualclusters":                read,
			"compute:regions":                           read,
			"compute:flavors":                           read,
			"compute:images":                            read,
			"compute:instances":                         read,
			"compute:clusters":                          read,
		},
	},
	{
		ID: ComputeServiceRoleID, Name: "compute-service", Description: "", Protected: true,
		Global: Scope{
			"identity:projects":                   read,
			"identity:allocations":                crud,
			"region:identities":                   createRead,
			"region:regions":                      read,
			"region:flavors":                      read,
			"region:images":                       {Read, Create},
			"region:networks":                     createRead,
			"region:networks:v2":                  read,
			"region:servers":                      crud,
			"region:servers:v2":                   crud,
			"region:securitygroups":               crud,
			"region:securitygroups:v2":            read,
			"region:sshcertificateauthorities:v2": read,
		},
	},
	{
		ID: KubernetesServiceRoleID, Name: "kubernetes-service", Description: "Kubernetes service", Protected: true,
		Global: Scope{
			"identity:projects":            read,
			"identity:projects/references": {Create, Delete},
			"identity:allocations":         crud,
			"region:identities":            createRead,
			"region:identities/references": {Create, Delete},
			"region:regions":               read,
			"region:regions/detail":        read,
			"region:flavors":               read,
			"region:images":                read,
			"region:externalnetworks":      read,
			"region:networks":              createRead,
		},
	},
	{
		ID: PlatformAdministratorRoleID, Name: "platform-administrator", Description: "Platform administrator", Protected: true,
		Global: Scope{
			"identity:organizations":                    crud,
			"identity:oauth2providers":                  crud,
			"identity:roles":                            crud,
			"identity:serviceaccounts":                  crud,
			"identity:users":                            crud,
			"identity:groups":                           crud,
			"identity:projects":                         crud,
			"identity:projects/references":              crud,
			"identity:quotas":                           crud,
			"identity:allocations":                      crud,
			"region:regions":                            crud,
			"region:flavors":                            crud,
			"region:images":                             crud,
			"region:externalnetworks":                   crud,
			"region:identities":                         crud,
			"region:identities/references":              crud,
			"region:networks":                           crud,
			"region:networks/references":                crud,
			"region:networks:v2":                        crud,
			"region:networks:v2/references":             crud,
			"region:loadbalancers:v2":                   crud,
			"region:securitygroups":                     crud,
			"region:securitygroups:v2":                  crud,
			"region:servers":                            crud,
			"region:servers:v2":                         crud,
			"region:volumeclasses:v2":                   read,
			"region:volumes:v2":                         crud,
			"region:filestorage:v2":                     crud,
			"region:filestorageclass:v2":                crud,
			"region:sshcertificateauthorities:v2":       createRead,
			"kubernetes:regions":                        crud,
			"kubernetes:flavors":                        crud,
			"kubernetes:images":                         crud,
			"kubernetes:clustermanagers":                crud,
			"kubernetes:clusters":                       crud,
			"kubernetes:virtualclusters":                crud,
			"compute:regions":                           crud,
			"compute:flavors":                           crud,
			"compute:images":                            crud,
			"compute:instances":                         crud,
			"compute:clusters":                          crud,
			"storage:objectstorageclasses":              crud,
			"storage:objectstorageendpoints":            crud,
			"storage:objectstorageendpoints/accesskeys": crud,
		},
	},
	{
		ID: ReaderRoleID, Name: "reader", Description: "Project reader",
		Organization: Scope{
			"identity:quotas":              read,
			"region:regions":               read,
			"region:filestorageclass:v2":   read,
			"region:volumeclasses:v2":      read,
			"storage:objectstorageclasses": read,
			"region:flavors":               read,
			"region:images":                read,
			"kubernetes:regions":           read,
			"kubernetes:flavors":           read,
			"kubernetes:images":            read,
			"compute:regions":              read,
			"compute:flavors":              read,
			"compute:images":               read,
		},
		Project: Scope{
			"identity:projects":                         read,
			"region:networks:v2":                        read,
			"region:loadbalancers:v2":                   read,
			"region:securitygroups:v2":                  read,
			"region:volumes:v2":                         read,
			"region:filestorage:v2":                     read,
			"storage:objectstorageendpoints":            read,
			"storage:objectstorageendpoints/accesskeys": read,
			"region:sshcertificateauthorities:v2":       read,
			"kubernetes:clusters":                       read,
			"kubernetes:virtualclusters":                read,
			"compute:instances":                         read,
			"compute:clusters":                          read,
		},
	},
	{
		ID: RegionServiceRoleID, Name: "region-service", Description: "", Protected: true,
		Global: Scope{
			"identity:allocations":         crud,
			"identity:projects":            read,
			"identity:projects/references": {Create, Delete},
		},
	},
	{
		ID: StorageServiceRoleID, Name: "storage-service", Description: "", Protected: true,
		Global: Scope{
			"identity:projects":             read,
			"identity:projects/references":  {Create, Delete},
			"identity:allocations":          crud,
			"region:networks:v2/references": crud,
		},
	},
	{
		ID: UserRoleID, Name: "user", Description: "Project user",
		Organization: Scope{
			"identity:quotas":              read,
			"region:regions":               read,
			"region:filestorageclass:v2":   read,
			"region:volumeclasses:v2":      read,
			"storage:objectstorageclasses": read,
			"region:flavors":               read,
			"region:images":                createRead,
			"kubernetes:regions":           read,
			"kubernetes:flavors":           read,
			"kubernetes:images":            read,
			"compute:regions":              read,
			"compute:flavors":              read,
			"compute:images":               read,
		},
		Project: Scope{
			"identity:projects":                         read,
			"region:networks:v2":                        crud,
			"region:loadbalancers:v2":                   crud,
			"region:securitygroups:v2":                  crud,
			"region:volumes:v2":                         crud,
			"region:filestorage:v2":                     crud,
			"storage:objectstorageendpoints":            crud,
			"storage:objectstorageendpoints/accesskeys": crud,
			"region:sshcertificateauthorities:v2":       createRead,
			"kubernetes:clusters":                       crud,
			"kubernetes:virtualclusters":                crud,
			"compute:instances":                         crud,
			"compute:clusters":                          crud,
		},
	},
}

// RolesGranting names the unprotected roles that grant operation on endpoint at
// organization scope, for a refusal that says what is missing.
func RolesGranting(endpoint, operation string) []string {
	var names []string

	for _, role := range Roles {
		if !role.Protected && role.Organization.Allows(endpoint, operation) {
			names = append(names, role.Name)
		}
	}

	return names
}
