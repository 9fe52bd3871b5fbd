package unikorn

import (
	"context"
	"net/http"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

const allocationPath = "/api/v1/organizations/%s/projects/%s/allocations/%s"

// ListOrganizations lists the organizations the token belongs to.
func (c *Client) ListOrganizations(ctx context.Context) ([]Organization, error) {
	return callList[Organization](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, "/api/v1/organizations"))
}

// GetOrganization returns an organization.
func (c *Client) GetOrganization(ctx context.Context, id string) (*Organization, error) {
	return callObject[Organization](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, "/api/v1/organizations/%s", id))
}

// ListProjects lists the projects of an organization.
func (c *Client) ListProjects(ctx context.Context, organizationID string) ([]Project, error) {
	return callList[Project](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/projects", organizationID))
}

// GetProject returns a project.
func (c *Client) GetProject(ctx context.Context, organizationID, projectID string) (*Project, error) {
	return callObject[Project](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK,
		"/api/v1/organizations/%s/projects/%s", organizationID, projectID))
}

// GetQuotas returns the organization's quotas with what is used of each.
func (c *Client) GetQuotas(ctx context.Context, organizationID string) (*Quotas, error) {
	return callObject[Quotas](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/quotas", organizationID))
}

// CreateAllocation charges quota for a resource; over quota is a 403.
func (c *Client) CreateAllocation(ctx context.Context, organizationID, projectID string, write AllocationWrite) (*Allocation, error) {
	return callObject[Allocation](ctx, c, c.op(services.Identity, http.MethodPost, http.StatusCreated,
		"/api/v1/organizations/%s/projects/%s/allocations", organizationID, projectID).withBody(write))
}

// GetAllocation returns an allocation.
func (c *Client) GetAllocation(ctx context.Context, organizationID, projectID, id string) (*Allocation, error) {
	return callObject[Allocation](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, allocationPath, organizationID, projectID, id))
}

// UpdateAllocation replaces what an allocation charges; over quota is a 403 and leaves
// it unchanged.
func (c *Client) UpdateAllocation(ctx context.Context, organizationID, projectID, id string, write AllocationWrite) (*Allocation, error) {
	return callObject[Allocation](ctx, c, c.op(services.Identity, http.MethodPut, http.StatusOK,
		allocationPath, organizationID, projectID, id).withBody(write))
}

// DeleteAllocation releases an allocation.
func (c *Client) DeleteAllocation(ctx context.Context, organizationID, projectID, id string) error {
	return call(ctx, c, c.op(services.Identity, http.MethodDelete, http.StatusAccepted, allocationPath, organizationID, projectID, id))
}

const (
	projectPath         = "/api/v1/organizations/%s/projects/%s"
	groupsPath          = "/api/v1/organizations/%s/groups"
	groupPath           = "/api/v1/organizations/%s/groups/%s"
	serviceAccountsPath = "/api/v1/organizations/%s/serviceaccounts"
	usersPath           = "/api/v1/organizations/%s/users"
	userPath            = "/api/v1/organizations/%s/users/%s"
	serviceAccountPath  = "/api/v1/organizations/%s/serviceaccounts/%s"
)

// CreateProject asks for a project; identity answers 202 with it pending and
// provisions it afterwards.
func (c *Client) CreateProject(ctx context.Context, organizationID string, write ProjectWrite) (*Project, error) {
	return callObject[Project](ctx, c, c.op(services.Identity, http.MethodPost, http.StatusAccepted,
		"/api/v1/organizations/%s/projects", organizationID).withBody(write))
}

// UpdateProject replaces a project's metadata and groups. Identity answers with no
// body; a concurrent change is a 409.
func (c *Client) UpdateProject(ctx context.Context, organizationID, projectID string, write ProjectWrite) error {
	return call(ctx, c, c.op(services.Identity, http.MethodPut, http.StatusOK, projectPath, organizationID, projectID).withBody(write))
}

// DeleteProject starts a project's deletion, which other services' references to it
// hold back.
func (c *Client) DeleteProject(ctx context.Context, organizationID, projectID string) error {
	return call(ctx, c, c.op(services.Identity, http.MethodDelete, http.StatusAccepted, projectPath, organizationID, projectID))
}

// ListGroups lists the groups of an organization.
func (c *Client) ListGroups(ctx context.Context, organizationID string) ([]Group, error) {
	return callList[Group](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, groupsPath, organizationID))
}

// GetGroup returns a group.
func (c *Client) GetGroup(ctx context.Context, organizationID, groupID string) (*Group, error) {
	return callObject[Group](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, groupPath, organizationID, groupID))
}

// CreateGroup creates a group; groups are synchronous, so it exists when this returns.
func (c *Client) CreateGroup(ctx context.Context, organizationID string, write GroupWrite) (*Group, error) {
	return callObject[Group](ctx, c, c.op(services.Identity, http.MethodPost, http.StatusCreated, groupsPath, organizationID).withBody(write))
}

// UpdateGroup replaces a group. Identity answers with no body.
func (c *Client) UpdateGroup(ctx context.Context, organizationID, groupID string, write GroupWrite) error {
	return call(ctx, c, c.op(services.Identity, http.MethodPut, http.StatusOK, groupPath, organizationID, groupID).withBody(write))
}

// DeleteGroup deletes a group and takes it out of every project that names it.
func (c *Client) DeleteGroup(ctx context.Context, organizationID, groupID string) error {
	return call(ctx, c, c.op(services.Identity, http.MethodDelete, http.StatusOK, groupPath, organizationID, groupID))
}

// ListServiceAccounts lists the service accounts of an organization: identity has no
// read of one by ID.
func (c *Client) ListServiceAccounts(ctx context.Context, organizationID string) ([]ServiceAccount, error) {
	return callList[ServiceAccount](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, serviceAccountsPath, organizationID))
}

// CreateServiceAccount creates a service account; its answer carries the access
// token, which nothing shows again.
func (c *Client) CreateServiceAccount(ctx context.Context, organizationID string, write ServiceAccountWrite) (*ServiceAccount, error) {
	return callObject[ServiceAccount](ctx, c, c.op(services.Identity, http.MethodPost, http.StatusCreated,
		serviceAccountsPath, organizationID).withBody(write))
}

// UpdateServiceAccount replaces a service account's metadata and groups; the token is kept.
func (c *Client) UpdateServiceAccount(ctx context.Context, organizationID, serviceAccountID string, write ServiceAccountWrite) (*ServiceAccount, error) {
	return callObject[ServiceAccount](ctx, c, c.op(services.Identity, http.MethodPut, http.StatusOK,
		serviceAccountPath, organizationID, serviceAccountID).withBody(write))
}

// DeleteServiceAccount deletes a service account, revokes its token and takes it out
// of its groups.
func (c *Client) DeleteServiceAccount(ctx context.Context, organizationID, serviceAccountID string) error {
	return call(ctx, c, c.op(services.Identity, http.MethodDelete, http.StatusOK, serviceAccountPath, organizationID, serviceAccountID))
}

// RotateServiceAccount issues a new access token and revokes the old one. It is a
// POST: never resent, since a lost answer loses the only copy of the new token.
func (c *Client) RotateServiceAccount(ctx context.Context, organizationID, serviceAccountID string) (*ServiceAccount, error) {
	return callObject[ServiceAccount](ctx, c, c.op(services.Identity, http.MethodPost, http.StatusOK,
		serviceAccountPath+"/rotate", organizationID, serviceAccountID))
}

// ListRoles lists the roles an organization's groups may hold.
func (c *Client) ListRoles(ctx context.Context, organizationID string) ([]Role, error) {
	return callList[Role](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/roles", organizationID))
}

// ListUsers lists the users of an organization: identity has no read of one by ID.
func (c *Client) ListUsers(ctx context.Context, organizationID string) ([]User, error) {
	return callList[User](ctx, c, c.op(services.Identity, http.MethodGet, http.StatusOK, usersPath, organizationID))
}

// CreateUser makes a subject a user of the organization, in the groups named. Identity
// answers an existing user of that subject as it is: the create is idempotent.
func (c *Client) CreateUser(ctx context.Context, organizationID string, write UserWrite) (*User, error) {
	return callObject[User](ctx, c, c.op(services.Identity, http.MethodPost, http.StatusCreated, usersPath, organizationID).withBody(write))
}

// UpdateUser replaces a user's state and groups.
func (c *Client) UpdateUser(ctx context.Context, organizationID, userID string, write UserWrite) (*User, error) {
	return callObject[User](ctx, c, c.op(services.Identity, http.MethodPut, http.StatusOK, userPath, organizationID, userID).withBody(write))
}

// DeleteUser takes a user out of the organization and its groups, and revokes its
// tokens.
func (c *Client) DeleteUser(ctx context.Context, organizationID, userID string) error {
	return call(ctx, c, c.op(services.Identity, http.MethodDelete, http.StatusOK, userPath, organizationID, userID))
}
