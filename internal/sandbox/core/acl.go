package core

import (
	"fmt"
	"slices"
)

// Access control follows identity's pkg/rbac: a principal's roles, through the groups
// and projects that give them, make an access control list, which allows or forbids
// each operation with identity's own words. Every service asks it the same way.

// RBAC operations.
const (
	OpCreate = "create"
	OpRead   = "read"
	OpUpdate = "update"
	OpDelete = "delete"
)

// Scope maps an endpoint name, such as "identity:projects", to the operations granted on it.
type Scope map[string][]string

// Allows reports whether the scope grants operation on endpoint.
func (s Scope) Allows(endpoint, operation string) bool {
	return slices.Contains(s[endpoint], operation)
}

// add grants everything other grants.
func (s Scope) add(other Scope) {
	for endpoint, operations := range other {
		for _, operation := range operations {
			if !slices.Contains(s[endpoint], operation) {
				s[endpoint] = append(s[endpoint], operation)
			}
		}
	}
}

// Role is one of the roles identity's chart installs. Protected roles are identity's
// own and its services': never listed, never granted through a group. The chart is
// identity's (its roles family), which exposes every role as this type.
type Role struct {
	ID          string
	Name        string
	Description string
	Protected   bool

	Global       Scope
	Organization Scope
	Project      Scope
}

// Group is what RBAC reads of a group: the roles it holds and who belongs to it.
// Subjects are the IDs of its subjects, whatever their issuer.
type Group struct {
	ID                string
	RoleIDs           []string
	UserIDs           []string
	Subjects          []string
	ServiceAccountIDs []string
}

// Project is what RBAC reads of a project: the groups whose project-scoped roles
// apply in it.
type Project struct {
	ID       string
	GroupIDs []string
}

// Member is who a principal is within an organization: a user, by its subject and
// its organization user ID, or a service account.
type Member struct {
	UserID           string
	Subject          string
	ServiceAccountID string
}

// in is identity's group filter (pkg/rbac groupSubjectFilter): a user is in a group
// that names its subject, whatever the issuer, or else its organization user ID;
// a service account in one that names its ID.
func (m Member) in(group Group) bool {
	return (m.Subject != "" && slices.Contains(group.Subjects, m.Subject)) ||
		(m.UserID != "" && slices.Contains(group.UserIDs, m.UserID)) ||
		(m.ServiceAccountID != "" && slices.Contains(group.ServiceAccountIDs, m.ServiceAccountID))
}

// ACL is what a principal may do, as identity computes it for a request.
type ACL struct {
	// Global applies in every organization and project.
	Global        Scope
	Organizations map[string]*OrganizationACL
}

// OrganizationACL is what a principal may do in one organization: Endpoints at
// organization scope, and per project what that project's groups grant.
type OrganizationACL struct {
	Endpoints Scope
	Projects  map[string]Scope
}

// NewACL returns an ACL that grants nothing.
func NewACL() *ACL {
	return &ACL{Global: Scope{}, Organizations: map[string]*OrganizationACL{}}
}

func (a *ACL) organization(id string) *OrganizationACL {
	organization, ok := a.Organizations[id]
	if !ok {
		organization = &OrganizationACL{Endpoints: Scope{}, Projects: map[string]Scope{}}
		a.Organizations[id] = organization
	}

	return organization
}

// Join makes the principal a member of the organization, with nothing granted yet:
// membership alone lets it list the organization.
func (a *ACL) Join(organizationID string) {
	a.organization(organizationID)
}

// Leave takes the principal out of the organization with everything granted there.
func (a *ACL) Leave(organizationID string) {
	delete(a.Organizations, organizationID)
}

// GrantRole gives a role to the principal in an organization: its organization scope
// there, and its project scope in each of projectIDs. Its global scope is GrantGlobal's.
func (a *ACL) GrantRole(organizationID string, role Role, projectIDs ...string) {
	organization := a.organization(organizationID)
	organization.Endpoints.add(role.Organization)

	for _, projectID := range projectIDs {
		if len(role.Project) == 0 {
			break
		}

		scope, ok := organization.Projects[projectID]
		if !ok {
			scope = Scope{}
			organization.Projects[projectID] = scope
		}

		scope.add(role.Project)
	}
}

// GrantGlobal gives a role's global scope, which reaches every organization and project.
func (a *ACL) GrantGlobal(role Role) {
	a.Global.add(role.Global)
}

// GrantGroups adds what the organization's groups give member: the organization
// scope of every role of the groups it belongs to, and in each project the project
// scope of the roles of those of its groups the project names. A role a group names
// that roleByID does not find grants nothing.
func (a *ACL) GrantGroups(organizationID string, member Member, groups []Group, projects []Project, roleByID func(string) (Role, bool)) {
	mine := map[string]Group{}

	for _, group := range groups {
		if member.in(group) {
			mine[group.ID] = group
		}
	}

	if len(mine) == 0 {
		return
	}

	a.Join(organizationID)

	for _, group := range mine {
		for _, roleID := range group.RoleIDs {
			if role, ok := roleByID(roleID); ok {
				a.GrantRole(organizationID, Role{Organization: role.Organization})
			}
		}
	}

	for _, project := range projects {
		for _, groupID := range project.GroupIDs {
			group, ok := mine[groupID]
			if !ok {
				continue
			}

			for _, roleID := range group.RoleIDs {
				if role, ok := roleByID(roleID); ok {
					a.GrantRole(organizationID, Role{Project: role.Project}, project.ID)
				}
			}
		}
	}
}

// Denied is identity's 403: the operation is not allowed by RBAC.
type Denied struct {
	Endpoint  string
	Operation string
	Message   string
}

func (d *Denied) Error() string {
	return d.Message
}

func denied(endpoint, operation, why string) *Denied {
	message := fmt.Sprintf("operation is not allowed by rbac: operation '%s' on endpoint '%s' %s", operation, endpoint, why)

	return &Denied{Endpoint: endpoint, Operation: operation, Message: message}
}

// IsMember reports whether the principal belongs to the organization, or holds a
// global scope, which reaches every organization.
func (a *ACL) IsMember(organizationID string) bool {
	_, ok := a.Organizations[organizationID]

	return ok || len(a.Global) > 0
}

// AllowOrganization allows an operation that global or organization scope must grant.
func (a *ACL) AllowOrganization(organizationID, endpoint, operation string) error {
	if a.Global.Allows(endpoint, operation) {
		return nil
	}

	organization, ok := a.Organizations[organizationID]
	if !ok {
		return denied(endpoint, operation, "— organization is not in this principal's accessible set")
	}

	if !organization.Endpoints.Allows(endpoint, operation) {
		return denied(endpoint, operation, "is not permitted")
	}

	return nil
}

// AllowProject allows an operation in a project that global, organization or that
// project's scope grants.
func (a *ACL) AllowProject(organizationID, projectID, endpoint, operation string) error {
	if a.AllowOrganization(organizationID, endpoint, operation) == nil {
		return nil
	}

	if organization, ok := a.Organizations[organizationID]; ok {
		if scope, ok := organization.Projects[projectID]; ok {
			if scope.Allows(endpoint, operation) {
				return nil
			}

			return denied(endpoint, operation, "is not permitted")
		}
	}

	return denied(endpoint, operation, "— project is not in this principal's accessible set")
}

// CanReadProject reports whether the project is in the principal's accessible set:
// whether it may read the project.
func (a *ACL) CanReadProject(organizationID, projectID string) bool {
	return a.AllowProject(organizationID, projectID, "identity:projects", OpRead) == nil
}

// AllowRole allows granting role in the organization only to a principal that holds
// everything the role grants, at the role's scope or a wider one; a project-scoped
// grant is held when any one project grants it. This closes the escalation of
// naming a more powerful role's ID.
func (a *ACL) AllowRole(organizationID string, role Role) error {
	for _, endpoint := range sortedEndpoints(role.Global) {
		for _, operation := range role.Global[endpoint] {
			if !a.Global.Allows(endpoint, operation) {
				return denied(endpoint, operation, "— no global-scope permissions are granted to this principal")
			}
		}
	}

	for _, endpoint := range sortedEndpoints(role.Organization) {
		for _, operation := range role.Organization[endpoint] {
			if err := a.AllowOrganization(organizationID, endpoint, operation); err != nil {
				return err
			}
		}
	}

	for _, endpoint := range sortedEndpoints(role.Project) {
		for _, operation := range role.Project[endpoint] {
			if !a.holdsInAnyProject(organizationID, endpoint, operation) {
				return denied(endpoint, operation, "— the caller holds it at neither organization nor any project scope, so cannot grant it")
			}
		}
	}

	return nil
}

// HoldsAnywhere reports whether any scope grants operation on endpoint: global, an
// organization's, or a project's.
func (a *ACL) HoldsAnywhere(endpoint, operation string) bool {
	if a.Global.Allows(endpoint, operation) {
		return true
	}

	for organizationID := range a.Organizations {
		if a.holdsInAnyProject(organizationID, endpoint, operation) {
			return true
		}
	}

	return false
}

func (a *ACL) holdsInAnyProject(organizationID, endpoint, operation string) bool {
	if a.AllowOrganization(organizationID, endpoint, operation) == nil {
		return true
	}

	organization, ok := a.Organizations[organizationID]
	if !ok {
		return false
	}

	for _, scope := range organization.Projects {
		if scope.Allows(endpoint, operation) {
			return true
		}
	}

	return false
}

func sortedEndpoints(scope Scope) []string {
	endpoints := make([]string, 0, len(scope))
	for endpoint := range scope {
		endpoints = append(endpoints, endpoint)
	}

	slices.Sort(endpoints)

	return endpoints
}
