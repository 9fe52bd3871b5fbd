package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ControlClient calls the control API of a sandbox running in another process, with
// the same effect as the Sandbox methods of the same names.
type ControlClient struct {
	baseURL string
	token   string
	http    *http.Client
}

// NewControlClient returns a client of the sandbox at baseURL (e.g.
// http://127.0.0.1:8080), authenticating as the fixture user. A nil hc means
// http.DefaultClient.
func NewControlClient(baseURL, token string, hc *http.Client) *ControlClient {
	if hc == nil {
		hc = http.DefaultClient
	}

	return &ControlClient{baseURL: strings.TrimSuffix(baseURL, "/"), token: token, http: hc}
}

// Stats returns the request counters.
func (c *ControlClient) Stats(ctx context.Context) (Stats, error) {
	var stats Stats
	err := c.do(ctx, http.MethodGet, "stats", nil, &stats)

	return stats, err
}

// ResetStats zeroes the request counters.
func (c *ControlClient) ResetStats(ctx context.Context) error {
	return c.do(ctx, http.MethodDelete, "stats", nil, nil)
}

// AddFault installs a fault rule and returns its ID.
func (c *ControlClient) AddFault(ctx context.Context, rule FaultRule) (string, error) {
	var created struct {
		ID string `json:"id"`
	}
	err := c.do(ctx, http.MethodPost, "faults", rule, &created)

	return created.ID, err
}

// ClearFaults removes every fault rule.
func (c *ControlClient) ClearFaults(ctx context.Context) error {
	return c.do(ctx, http.MethodDelete, "faults", nil, nil)
}

// UpdateSettings changes timings at run time.
func (c *ControlClient) UpdateSettings(ctx context.Context, settings Settings) error {
	return c.do(ctx, http.MethodPut, "settings", settings, nil)
}

// Allocations returns every identity allocation in every project.
func (c *ControlClient) Allocations(ctx context.Context) ([]unikorn.Allocation, error) {
	var allocations []unikorn.Allocation
	err := c.do(ctx, http.MethodGet, "allocations", nil, &allocations)

	return allocations, err
}

// InstanceServers returns the servers that carry an instance's tag as they are, not as
// a lagging read shows them.
func (c *ControlClient) InstanceServers(ctx context.Context, instanceID string) ([]unikorn.Server, error) {
	var servers []unikorn.Server
	err := c.do(ctx, http.MethodGet, "instances/"+url.PathEscape(instanceID)+"/servers", nil, &servers)

	return servers, err
}

// Objects returns what the sandbox holds now; withFixtures false leaves the fixtures out.
func (c *ControlClient) Objects(ctx context.Context, withFixtures bool) ([]Object, error) {
	var objects []Object
	err := c.do(ctx, http.MethodGet, "objects?fixtures="+strconv.FormatBool(withFixtures), nil, &objects)

	return objects, err
}

// LoadBalancers returns every load balancer as it is, not as a lagging read shows it.
func (c *ControlClient) LoadBalancers(ctx context.Context) ([]unikorn.LoadBalancer, error) {
	var loadBalancers []unikorn.LoadBalancer
	err := c.do(ctx, http.MethodGet, "loadbalancers", nil, &loadBalancers)

	return loadBalancers, err
}

// SetImageSource says what image imports find at a URI, e.g. that the import fails.
func (c *ControlClient) SetImageSource(ctx context.Context, source ImageSource) error {
	return c.do(ctx, http.MethodPut, "imagesources", source, nil)
}

// ClearImageSources makes every URI hold a raw image that imports again.
func (c *ControlClient) ClearImageSources(ctx context.Context) error {
	return c.do(ctx, http.MethodDelete, "imagesources", nil, nil)
}

// FailServer makes a server's provisioning fail.
func (c *ControlClient) FailServer(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "servers/"+url.PathEscape(id)+"/fail", nil, nil)
}

// do sends one control request; in and out are JSON bodies, either may be nil.
func (c *ControlClient) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader

	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encoding sandbox control request: %w", err)
		}

		body = bytes.NewReader(data)
	}

	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+core.ControlPrefix+path, body)
	if err != nil {
		return fmt.Errorf("building sandbox control request: %w", err)
	}

	req.Header.Set("Authorization", "Bearer "+c.token)

	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("sandbox control %s %s: %w", method, path, err)
	}

	defer resp.Body.Close()

	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("sandbox control %s %s: reading response: %w", method, path, err)
	}

	if resp.StatusCode >= http.StatusBadRequest {
		var e unikorn.ErrorBody
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			return fmt.Errorf("sandbox control %s %s: %d %s: %s", method, path, resp.StatusCode, e.Error, e.ErrorDescription)
		}

		return fmt.Errorf("sandbox control %s %s: status %d", method, path, resp.StatusCode)
	}

	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("sandbox control %s %s: decoding response: %w", method, path, err)
		}
	}

	return nil
}

// FileStorage returns every file storage as it is, not as a lagging read shows it.
func (c *ControlClient) FileStorage(ctx context.Context) ([]unikorn.FileStorage, error) {
	var all []unikorn.FileStorage
	err := c.do(ctx, http.MethodGet, "filestorage", nil, &all)

	return all, err
}

// SetFileStorageUsage makes the storage back end report use of a share.
func (c *ControlClient) SetFileStorageUsage(ctx context.Context, id string, usage FileStorageUsage) error {
	return c.do(ctx, http.MethodPut, "filestorage/"+url.PathEscape(id)+"/usage", usage, nil)
}

// Volumes returns every volume as it is, not as a lagging read shows it.
func (c *ControlClient) Volumes(ctx context.Context) ([]unikorn.Volume, error) {
	var all []unikorn.Volume
	err := c.do(ctx, http.MethodGet, "volumes", nil, &all)

	return all, err
}

// WriteVolumeFile writes a file to a volume as the guest of its server would.
func (c *ControlClient) WriteVolumeFile(ctx context.Context, id string, file VolumeFile) error {
	return c.do(ctx, http.MethodPost, "volumes/"+url.PathEscape(id)+"/files", file, nil)
}

// VolumeFiles returns the files guests wrote to a volume, by path.
func (c *ControlClient) VolumeFiles(ctx context.Context, id string) (map[string]string, error) {
	var files map[string]string
	err := c.do(ctx, http.MethodGet, "volumes/"+url.PathEscape(id)+"/files", nil, &files)

	return files, err
}
