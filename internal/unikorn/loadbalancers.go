package unikorn

import (
	"context"
	"net/http"
	"net/url"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// The load balancer types follow region v1.20.0, the first published contract that
// has them (`region-v1.20.0.public.yaml`). Optional members are pointers where region
// tells absent from zero (a health check's fields, the idle timeout, the booleans it
// defaults), so that a request says exactly what the caller meant.

// Load balancer listener protocols (region `loadBalancerListenerProtocolV2`).
const (
	LoadBalancerProtocolTCP = "tcp"
	LoadBalancerProtocolUDP = "udp"
)

// LoadBalancer is region `loadBalancerV2Read`.
type LoadBalancer struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     LoadBalancerSpec      `json:"spec"`
	Status   LoadBalancerStatus    `json:"status"`
}

// LoadBalancerSpec is region `loadBalancerV2Spec`: the whole document a PUT replaces.
type LoadBalancerSpec struct {
	PublicIP  *bool                  `json:"publicIP,omitempty"`
	Listeners []LoadBalancerListener `json:"listeners"`
}

// LoadBalancerListener is region `loadBalancerListenerV2`.
type LoadBalancerListener struct {
	Name               string           `json:"name"`
	Protocol           string           `json:"protocol"`
	Port               int              `json:"port"`
	AllowedCIDRs       []string         `json:"allowedCidrs,omitempty"`
	IdleTimeoutSeconds *int             `json:"idleTimeoutSeconds,omitempty"`
	Pool               LoadBalancerPool `json:"pool"`
}

// LoadBalancerPool is region `loadBalancerPoolV2`. Members is required but may be
// empty, so it is sent as `[]`, never `null`.
type LoadBalancerPool struct {
	ProxyProtocolV2 *bool                    `json:"proxyProtocolV2,omitempty"`
	Members         []LoadBalancerMember     `json:"members"`
	HealthCheck     *LoadBalancerHealthCheck `json:"healthCheck,omitempty"`
}

// LoadBalancerMember is region `loadBalancerMemberV2`: an IPv4 address and a port.
type LoadBalancerMember struct {
	Address string `json:"address"`
	Port    int    `json:"port"`
}

// LoadBalancerHealthCheck is region `loadBalancerHealthCheckV2`.
type LoadBalancerHealthCheck struct {
	IntervalSeconds    *int `json:"intervalSeconds,omitempty"`
	TimeoutSeconds     *int `json:"timeoutSeconds,omitempty"`
	HealthyThreshold   *int `json:"healthyThreshold,omitempty"`
	UnhealthyThreshold *int `json:"unhealthyThreshold,omitempty"`
}

// LoadBalancerStatus is region `loadBalancerV2Status`. The addresses appear once the
// load balancer is provisioned.
type LoadBalancerStatus struct {
	RegionID   string `json:"regionId"`
	NetworkID  string `json:"networkId"`
	VIPAddress string `json:"vipAddress,omitempty"`
	PublicIP   string `json:"publicIP,omitempty"`
}

// LoadBalancerCreate is region `loadBalancerV2Create`.
type LoadBalancerCreate struct {
	Metadata WriteMetadata          `json:"metadata"`
	Spec     LoadBalancerCreateSpec `json:"spec"`
}

// LoadBalancerCreateSpec is region `loadBalancerV2CreateSpec`: the network and the
// virtual IP are chosen once, at create.
type LoadBalancerCreateSpec struct {
	LoadBalancerSpec

	NetworkID  string `json:"networkId"`
	VIPAddress string `json:"vipAddress,omitempty"`
}

// LoadBalancerUpdate is region `loadBalancerV2Update`.
type LoadBalancerUpdate struct {
	Metadata WriteMetadata    `json:"metadata"`
	Spec     LoadBalancerSpec `json:"spec"`
}

// LoadBalancerQuery filters `GET /api/v2/loadbalancers` as ServerQuery filters servers.
type LoadBalancerQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
	NetworkIDs      []string
}

func (q LoadBalancerQuery) values() url.Values { return scopeFilter(q).values() }

// ListLoadBalancers lists the load balancers matching q.
func (c *Client) ListLoadBalancers(ctx context.Context, q LoadBalancerQuery) ([]LoadBalancer, error) {
	return callList[LoadBalancer](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/loadbalancers").withQuery(q.values()))
}

// CreateLoadBalancer creates a load balancer on a network; it answers while the load
// balancer is still pending, before it has its addresses.
func (c *Client) CreateLoadBalancer(ctx context.Context, create LoadBalancerCreate) (*LoadBalancer, error) {
	return callObject[LoadBalancer](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated, "/api/v2/loadbalancers").withBody(create))
}

// GetLoadBalancer returns a load balancer.
func (c *Client) GetLoadBalancer(ctx context.Context, id string) (*LoadBalancer, error) {
	return callObject[LoadBalancer](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/loadbalancers/%s", id))
}

// UpdateLoadBalancer replaces a load balancer's document (all but its network and
// virtual IP). Region applies it with an optimistic lock on the version it read,
// which it reads from a cache: a 409 means that version was out of date.
func (c *Client) UpdateLoadBalancer(ctx context.Context, id string, update LoadBalancerUpdate) (*LoadBalancer, error) {
	return callObject[LoadBalancer](ctx, c, c.op(services.Region, http.MethodPut, http.StatusAccepted, "/api/v2/loadbalancers/%s", id).withBody(update))
}

// DeleteLoadBalancer starts deleting a load balancer.
func (c *Client) DeleteLoadBalancer(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/loadbalancers/%s", id))
}
