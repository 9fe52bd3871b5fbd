package unikorn

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Compute is the public face of instances: every project user may call it, whereas
// region's servers and identity's allocations behind it are reserved to compute's own
// account. Its catalogue mirrors region's, filtered to what compute can run.

// ListComputeRegions lists the regions compute offers the organization.
func (c *Client) ListComputeRegions(ctx context.Context, organizationID string) ([]Region, error) {
	return callList[Region](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/regions", organizationID))
}

// ListComputeFlavors lists the flavors compute offers in a region.
func (c *Client) ListComputeFlavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error) {
	return callList[Flavor](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK,
		"/api/v1/organizations/%s/regions/%s/flavors", organizationID, regionID))
}

// ListComputeImages lists the images compute's curated catalogue offers in a region.
// An instance may still use any image region makes available to the organization.
func (c *Client) ListComputeImages(ctx context.Context, organizationID, regionID string) ([]Image, error) {
	return callList[Image](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK,
		"/api/v1/organizations/%s/regions/%s/images", organizationID, regionID))
}

// GetComputeVersion returns the release of the compute service that answers.
func (c *Client) GetComputeVersion(ctx context.Context) (*ServiceVersion, error) {
	return callObject[ServiceVersion](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/version"))
}

// ListInstances lists the instances matching q.
func (c *Client) ListInstances(ctx context.Context, q InstanceQuery) ([]Instance, error) {
	return callList[Instance](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/v2/instances").withQuery(q.values()))
}

// CreateInstance creates an instance; it answers before the instance is provisioned.
// A name already used on the network is a 409, a request over quota a 403.
func (c *Client) CreateInstance(ctx context.Context, create InstanceCreate) (*Instance, error) {
	return callObject[Instance](ctx, c, c.op(services.Compute, http.MethodPost, http.StatusCreated, "/api/v2/instances").withBody(create))
}

// GetInstance returns an instance.
func (c *Client) GetInstance(ctx context.Context, id string) (*Instance, error) {
	return callObject[Instance](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/v2/instances/%s", id))
}

// UpdateInstance replaces the spec, description and tags of an instance; renaming it
// is a 422. A new flavor or image rebuilds the server behind it, which may change its
// addresses.
func (c *Client) UpdateInstance(ctx context.Context, id string, update InstanceUpdate) (*Instance, error) {
	return callObject[Instance](ctx, c, c.op(services.Compute, http.MethodPut, http.StatusAccepted, "/api/v2/instances/%s", id).withBody(update))
}

// DeleteInstance starts deleting an instance.
func (c *Client) DeleteInstance(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Compute, http.MethodDelete, http.StatusAccepted, "/api/v2/instances/%s", id))
}

// StartInstance powers a stopped instance on.
func (c *Client) StartInstance(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Compute, http.MethodPost, http.StatusAccepted, "/api/v2/instances/%s/start", id))
}

// StopInstance powers a running instance off.
func (c *Client) StopInstance(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Compute, http.MethodPost, http.StatusAccepted, "/api/v2/instances/%s/stop", id))
}

// RebootInstance asks the operating system to reboot, or power-cycles the instance
// when hard is set.
func (c *Client) RebootInstance(ctx context.Context, id string, hard bool) error {
	op := c.op(services.Compute, http.MethodPost, http.StatusAccepted, "/api/v2/instances/%s/reboot", id)
	if hard {
		op = op.withQuery(url.Values{"hard": {"true"}})
	}

	return call(ctx, c, op)
}

// GetInstanceSSHKey returns the private key of the instance's network identity.
func (c *Client) GetInstanceSSHKey(ctx context.Context, id string) (*SSHKey, error) {
	return callObject[SSHKey](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/v2/instances/%s/sshkey", id))
}

// GetInstanceConsoleSession opens a console session and returns its URL. Compute's
// path is singular where region's is plural.
func (c *Client) GetInstanceConsoleSession(ctx context.Context, id string) (*ConsoleSession, error) {
	return callObject[ConsoleSession](ctx, c, c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/v2/instances/%s/consolesession", id))
}

// GetInstanceConsoleOutput returns the last length lines of the instance's console,
// or all of it when length <= 0.
func (c *Client) GetInstanceConsoleOutput(ctx context.Context, id string, length int) (*ConsoleOutput, error) {
	op := c.op(services.Compute, http.MethodGet, http.StatusOK, "/api/v2/instances/%s/consoleoutput", id)
	if length > 0 {
		op = op.withQuery(url.Values{"length": {strconv.Itoa(length)}})
	}

	return callObject[ConsoleOutput](ctx, c, op)
}

// SnapshotInstance starts an image of the instance's disk; the image is not ready yet.
func (c *Client) SnapshotInstance(ctx context.Context, id string, create InstanceSnapshotCreate) (*Image, error) {
	return callObject[Image](ctx, c, c.op(services.Compute, http.MethodPost, http.StatusCreated,
		"/api/v2/instances/%s/snapshot", id).withBody(create))
}
