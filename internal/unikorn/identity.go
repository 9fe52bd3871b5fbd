package unikorn

import (
	"context"
	"net/http"
)

const allocationPath = "/api/v1/organizations/%s/projects/%s/allocations/%s"

// ListOrganizations lists the organizations the token belongs to.
func (c *Client) ListOrganizations(ctx context.Context) ([]Organization, error) {
	return callList[Organization](ctx, c, c.identityOp(http.MethodGet, http.StatusOK, "/api/v1/organizations"))
}

// GetOrganization returns an organization.
func (c *Client) GetOrganization(ctx context.Context, id string) (*Organization, error) {
	return callObject[Organization](ctx, c, c.identityOp(http.MethodGet, http.StatusOK, "/api/v1/organizations/%s", id))
}

// ListProjects lists the projects of an organization.
func (c *Client) ListProjects(ctx context.Context, organizationID string) ([]Project, error) {
	return callList[Project](ctx, c, c.identityOp(http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/projects", organizationID))
}

// GetProject returns a project.
func (c *Client) GetProject(ctx context.Context, organizationID, projectID string) (*Project, error) {
	return callObject[Project](ctx, c, c.identityOp(http.MethodGet, http.StatusOK,
		"/api/v1/organizations/%s/projects/%s", organizationID, projectID))
}

// GetQuotas returns the organization's quotas with what is used of each.
func (c *Client) GetQuotas(ctx context.Context, organizationID string) (*Quotas, error) {
	return callObject[Quotas](ctx, c, c.identityOp(http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/quotas", organizationID))
}

// CreateAllocation charges quota for a resource; over quota is a 403.
func (c *Client) CreateAllocation(ctx context.Context, organizationID, projectID string, write AllocationWrite) (*Allocation, error) {
	return callObject[Allocation](ctx, c, c.identityOp(http.MethodPost, http.StatusCreated,
		"/api/v1/organizations/%s/projects/%s/allocations", organizationID, projectID).withBody(write))
}

// GetAllocation returns an allocation.
func (c *Client) GetAllocation(ctx context.Context, organizationID, projectID, id string) (*Allocation, error) {
	return callObject[Allocation](ctx, c, c.identityOp(http.MethodGet, http.StatusOK, allocationPath, organizationID, projectID, id))
}

// UpdateAllocation replaces what an allocation charges; over quota is a 403 and leaves
// it unchanged.
func (c *Client) UpdateAllocation(ctx context.Context, organizationID, projectID, id string, write AllocationWrite) (*Allocation, error) {
	return callObject[Allocation](ctx, c, c.identityOp(http.MethodPut, http.StatusOK,
		allocationPath, organizationID, projectID, id).withBody(write))
}

// DeleteAllocation releases an allocation.
func (c *Client) DeleteAllocation(ctx context.Context, organizationID, projectID, id string) error {
	return call(ctx, c, c.identityOp(http.MethodDelete, http.StatusAccepted, allocationPath, organizationID, projectID, id))
}
