package identity

// Role is one of the roles identity's chart installs. Protected roles are identity's
// own and its services': never listed, never granted through a group.
type Role struct {
	ID          string
	Name        string
	Description string
	Protected   bool

	Global       Scope
	Organization Scope
	Project      Scope
}

// Fixed IDs of the roles, so that tests and examples can name them. The chart
// derives its IDs from the names; these stand for them.
const (
	AdministratorRoleID         = "f1000000-0000-4000-8000-000000000001"
	AuditorRoleID               = "f1000000-0000-4000-8000-000000000002"
	UserRoleID                  = "f1000000-0000-4000-8000-000000000003"
	ReaderRoleID                = "f1000000-0000-4000-8000-000000000004"
	PlatformAdministratorRoleID = "f1000000-0000-4000-8000-000000000005"
	ComputeServiceRoleID        = "f1000000-0000-4000-8000-000000000006"
	RegionServiceRoleID         = "f1000000-0000-4000-8000-000000000007"
)

var (
	crud       = []string{Create, Read, Update, Delete}
	read       = []string{Read}
	createRead = []string{Create, Read, Delete}
)

// Roles are the chart's roles, in name order.
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
			"compute:regions":                           read,
			"compute:flavors":                           read,
			"compute:images":                            read,
			"compute:instances":                         crud,
		},
	},
	{
		ID: AuditorRoleID, Name: "auditor", Description: "Organization auditor",
		Organization: Scope{
			"identity:organizations": read, "identity:oauth2providers": read, "identity:serviceaccounts": read,
			"identity:users": read, "identity:roles": read, "identity:groups": read, "identity:projects": read,
			"identity:quotas": read, "region:regions": read, "region:networks:v2": read,
			"region:loadbalancers:v2": read, "region:filestorage:v2": read, "region:flavors": read,
			"region:images": read, "region:securitygroups:v2": read, "region:sshcertificateauthorities:v2": read,
			"compute:regions": read, "compute:flavors": read, "compute:images": read, "compute:instances": read,
		},
	},
	{
		ID: ComputeServiceRoleID, Name: "compute-service", Description: "Compute service", Protected: true,
		Global: Scope{
			"identity:projects": read, "identity:allocations": crud, "region:regions": read,
			"region:flavors": read, "region:images": {Read, Create}, "region:networks:v2": read,
			"region:servers": crud, "region:securitygroups:v2": read, "region:sshcertificateauthorities:v2": read,
		},
	},
	{
		ID: PlatformAdministratorRoleID, Name: "platform-administrator", Description: "Platform administrator", Protected: true,
		Global: Scope{
			"identity:organizations": crud, "identity:serviceaccounts": crud, "identity:users": crud,
			"identity:groups": crud, "identity:projects": crud, "identity:roles": crud,
			"identity:quotas": crud, "identity:allocations": crud,
		},
	},
	{
		ID: ReaderRoleID, Name: "reader", Description: "Project reader",
		Organization: Scope{
			"identity:quotas": read, "region:regions": read, "region:flavors": read, "region:images": read,
			"region:filestorageclass:v2": read, "region:volumeclasses:v2": read,
			"compute:regions": read, "compute:flavors": read, "compute:images": read,
		},
		Project: Scope{
			"identity:projects": read, "region:networks:v2": read, "region:loadbalancers:v2": read,
			"region:securitygroups:v2": read, "region:filestorage:v2": read,
			"region:sshcertificateauthorities:v2": read, "compute:instances": read,
		},
	},
	{
		// What the chart's systemAccounts gives region's client certificate
		// (unikorn-region): its calls to identity on its own account.
		ID: RegionServiceRoleID, Name: "region-service", Description: "Region service", Protected: true,
		Global: Scope{
			"identity:allocations": crud, "identity:projects": read, "identity:projects/references": {Create, Delete},
		},
	},
	{
		ID: UserRoleID, Name: "user", Description: "Project user",
		Organization: Scope{
			"identity:quotas": read, "region:regions": read, "region:flavors": read, "region:images": createRead,
			"region:filestorageclass:v2": read, "region:volumeclasses:v2": read,
			"compute:regions": read, "compute:flavors": read, "compute:images": read,
		},
		Project: Scope{
			"identity:projects": read, "region:networks:v2": crud, "region:loadbalancers:v2": crud,
			"region:securitygroups:v2": crud, "region:volumes:v2": crud, "region:filestorage:v2": crud,
			"region:sshcertificateauthorities:v2": createRead, "compute:instances": crud,
		},
	},
}

// RoleByID finds a role, protected or not.
func RoleByID(id string) (Role, bool) {
	for _, role := range Roles {
		if role.ID == id {
			return role, true
		}
	}

	return Role{}, false
}

// RolesGranting names the unprotected roles that grant operation on endpoint at
// organization scope, for a refusal that says what is missing.
func RolesGranting(endpoint, operation string) []string {
	var names []string

	for _, role := range Roles {
		if !role.Protected && role.Organization.allows(endpoint, operation) {
			names = append(names, role.Name)
		}
	}

	return names
}
