package unikorn

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Image list scopes (region `imageScopeQueryParameter`).
const (
	ImageScopeOwned     = "owned"
	ImageScopeAvailable = "available"
)

// ListRegions lists the regions the organization may use.
func (c *Client) ListRegions(ctx context.Context, organizationID string) ([]Region, error) {
	return callList[Region](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v1/organizations/%s/regions", organizationID))
}

// ListFlavors lists the flavors of a region.
func (c *Client) ListFlavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error) {
	return callList[Flavor](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK,
		"/api/v1/organizations/%s/regions/%s/flavors", organizationID, regionID))
}

// ListImages lists the ready images of a region that are global or owned by the organization.
func (c *Client) ListImages(ctx context.Context, organizationID, regionID string) ([]Image, error) {
	return callList[Image](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK,
		"/api/v1/organizations/%s/regions/%s/images", organizationID, regionID))
}

// ListImagesV2 lists the images of a region in any state, filtered by q.
func (c *Client) ListImagesV2(ctx context.Context, regionID string, q ImageQuery) ([]Image, error) {
	return callList[Image](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/regions/%s/images", regionID).withQuery(q.values()))
}

// GetImage returns one image the organization can use, in any state. Region has no
// read-one operation for images, so this filters the v2 list; an absent image is a
// 404 *APIError like any other missing resource.
func (c *Client) GetImage(ctx context.Context, organizationID, regionID, imageID string) (*Image, error) {
	images, err := c.ListImagesV2(ctx, regionID, ImageQuery{
		OrganizationIDs: []string{organizationID},
		Scope:           ImageScopeAvailable,
		Status:          []string{ImagePending, ImageCreating, ImageReady, ImageFailed},
	})
	if err != nil {
		return nil, err
	}

	for i := range images {
		if images[i].Metadata.ID == imageID {
			return &images[i], nil
		}
	}

	return nil, Missing("/api/v2/regions/"+url.PathEscape(regionID)+"/images",
		fmt.Sprintf("image %s is not available to organization %s", imageID, organizationID))
}

// CreateImage imports an image for the organization into a region from the URI of a
// raw disk image. Region answers 200, not 201, while the image is still pending; the
// import then goes on in the background, to ready or failed.
func (c *Client) CreateImage(ctx context.Context, organizationID, regionID string, create ImageCreate) (*Image, error) {
	return callObject[Image](ctx, c, c.op(services.Region, http.MethodPost, http.StatusOK,
		"/api/v1/organizations/%s/regions/%s/images", organizationID, regionID).withBody(create))
}

// DeleteImage deletes an image the organization owns.
func (c *Client) DeleteImage(ctx context.Context, organizationID, regionID, imageID string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted,
		"/api/v1/organizations/%s/regions/%s/images/%s", organizationID, regionID, imageID))
}

// ListNetworks lists the networks matching q.
func (c *Client) ListNetworks(ctx context.Context, q NetworkQuery) ([]Network, error) {
	return callList[Network](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/networks").withQuery(q.values()))
}

// CreateNetwork creates a network; it answers while the network is still pending.
func (c *Client) CreateNetwork(ctx context.Context, create NetworkCreate) (*Network, error) {
	return callObject[Network](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated, "/api/v2/networks").withBody(create))
}

// GetNetwork returns a network.
func (c *Client) GetNetwork(ctx context.Context, id string) (*Network, error) {
	return callObject[Network](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/networks/%s", id))
}

// UpdateNetwork replaces the mutable parts of a network.
func (c *Client) UpdateNetwork(ctx context.Context, id string, update NetworkUpdate) (*Network, error) {
	return callObject[Network](ctx, c, c.op(services.Region, http.MethodPut, http.StatusAccepted, "/api/v2/networks/%s", id).withBody(update))
}

// DeleteNetwork starts deleting a network.
func (c *Client) DeleteNetwork(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/networks/%s", id))
}

// ListSecurityGroups lists the security groups matching q.
func (c *Client) ListSecurityGroups(ctx context.Context, q SecurityGroupQuery) ([]SecurityGroup, error) {
	return callList[SecurityGroup](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/securitygroups").withQuery(q.values()))
}

// CreateSecurityGroup creates a security group on a network.
func (c *Client) CreateSecurityGroup(ctx context.Context, create SecurityGroupCreate) (*SecurityGroup, error) {
	return callObject[SecurityGroup](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated, "/api/v2/securitygroups").withBody(create))
}

// GetSecurityGroup returns a security group.
func (c *Client) GetSecurityGroup(ctx context.Context, id string) (*SecurityGroup, error) {
	return callObject[SecurityGroup](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/securitygroups/%s", id))
}

// UpdateSecurityGroup replaces the rules, name, description and tags of a security group.
func (c *Client) UpdateSecurityGroup(ctx context.Context, id string, update SecurityGroupUpdate) (*SecurityGroup, error) {
	return callObject[SecurityGroup](ctx, c, c.op(services.Region, http.MethodPut, http.StatusAccepted,
		"/api/v2/securitygroups/%s", id).withBody(update))
}

// DeleteSecurityGroup starts deleting a security group.
func (c *Client) DeleteSecurityGroup(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/securitygroups/%s", id))
}

// ListSSHCertificateAuthorities lists the SSH certificate authorities matching q.
func (c *Client) ListSSHCertificateAuthorities(ctx context.Context, q SSHCertificateAuthorityQuery) ([]SSHCertificateAuthority, error) {
	return callList[SSHCertificateAuthority](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK,
		"/api/v2/sshcertificateauthorities").withQuery(q.values()))
}

// CreateSSHCertificateAuthority registers an SSH certificate authority in a project.
func (c *Client) CreateSSHCertificateAuthority(ctx context.Context, create SSHCertificateAuthorityCreate) (*SSHCertificateAuthority, error) {
	return callObject[SSHCertificateAuthority](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated,
		"/api/v2/sshcertificateauthorities").withBody(create))
}

// GetSSHCertificateAuthority returns an SSH certificate authority.
func (c *Client) GetSSHCertificateAuthority(ctx context.Context, id string) (*SSHCertificateAuthority, error) {
	return callObject[SSHCertificateAuthority](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK,
		"/api/v2/sshcertificateauthorities/%s", id))
}

// DeleteSSHCertificateAuthority deletes an SSH certificate authority.
func (c *Client) DeleteSSHCertificateAuthority(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/sshcertificateauthorities/%s", id))
}

// ListServers lists the servers matching q.
func (c *Client) ListServers(ctx context.Context, q ServerQuery) ([]Server, error) {
	return callList[Server](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/servers").withQuery(q.values()))
}

// CreateServer creates a server; it answers while the server is still pending. A name
// already used on the network is a 409.
func (c *Client) CreateServer(ctx context.Context, create ServerCreate) (*Server, error) {
	return callObject[Server](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated, "/api/v2/servers").withBody(create))
}

// GetServer returns a server.
func (c *Client) GetServer(ctx context.Context, id string) (*Server, error) {
	return callObject[Server](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/servers/%s", id))
}

// UpdateServer replaces the spec, description and tags of a server; its name is immutable.
func (c *Client) UpdateServer(ctx context.Context, id string, update ServerUpdate) (*Server, error) {
	return callObject[Server](ctx, c, c.op(services.Region, http.MethodPut, http.StatusAccepted, "/api/v2/servers/%s", id).withBody(update))
}

// DeleteServer starts deleting a server.
func (c *Client) DeleteServer(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/servers/%s", id))
}

// StartServer powers a stopped server on.
func (c *Client) StartServer(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodPost, http.StatusAccepted, "/api/v2/servers/%s/start", id))
}

// StopServer powers a running server off.
func (c *Client) StopServer(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodPost, http.StatusAccepted, "/api/v2/servers/%s/stop", id))
}

// SoftRebootServer asks the server's operating system to reboot.
func (c *Client) SoftRebootServer(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodPost, http.StatusAccepted, "/api/v2/servers/%s/softreboot", id))
}

// HardRebootServer power-cycles a server.
func (c *Client) HardRebootServer(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodPost, http.StatusAccepted, "/api/v2/servers/%s/hardreboot", id))
}

// GetServerSSHKey returns the private key of the server's network identity, shared by
// every server on that network.
func (c *Client) GetServerSSHKey(ctx context.Context, id string) (*SSHKey, error) {
	return callObject[SSHKey](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/servers/%s/sshkey", id))
}

// GetServerConsoleSession opens a console session and returns its URL.
func (c *Client) GetServerConsoleSession(ctx context.Context, id string) (*ConsoleSession, error) {
	return callObject[ConsoleSession](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/servers/%s/consolesessions", id))
}

// GetServerConsoleOutput returns the last length lines of the server's console, or all
// of it when length <= 0.
func (c *Client) GetServerConsoleOutput(ctx context.Context, id string, length int) (*ConsoleOutput, error) {
	op := c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/servers/%s/consoleoutput", id)
	if length > 0 {
		op = op.withQuery(url.Values{"length": {strconv.Itoa(length)}})
	}

	return callObject[ConsoleOutput](ctx, c, op)
}

// SnapshotServer starts an image of the server's disk; the image is not ready yet.
func (c *Client) SnapshotServer(ctx context.Context, id string, create SnapshotCreate) (*Image, error) {
	return callObject[Image](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated, "/api/v2/servers/%s/snapshot", id).withBody(create))
}
