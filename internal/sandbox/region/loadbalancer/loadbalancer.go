// Package loadbalancer is region's load balancers (pkg/handler/loadbalancer): one
// document of listeners, pools and health checks in front of a network's servers,
// charged to the `loadbalancers` quota and, with a public IP, to `publicips`. A load
// balancer is owned by its network, which takes it along when it goes, and holds a
// virtual IP on it (and a public one) as the cloud's ports do.
package loadbalancer

import (
	"encoding/json"
	"net/http"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's load balancers.
var Family = core.Family{Name: "loadbalancer", Register: register}

const (
	// ObjectKind is a load balancer's kind among the objects the sandbox holds.
	ObjectKind = "loadBalancer"

	rbacNetworks      = "region:networks:v2"
	rbacLoadBalancers = "region:loadbalancers:v2"
)

// record is a load balancer as region keeps it.
type record struct {
	LoadBalancer unikorn.LoadBalancer `json:"loadBalancer"`
	Lifecycle    core.Schedule        `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the load balancer to the quota.
	AllocationID string `json:"allocationId"`
	// RequestedVIP is the virtual IP the create asked for; empty lets the network choose.
	RequestedVIP string `json:"requestedVip,omitempty"`
}

var loadBalancers = &core.Kind[record]{
	Name:       "loadBalancers",
	Noun:       "region load balancer",
	Project:    func(r *record) *unikorn.ProjectScopedMetadata { return &r.LoadBalancer.Metadata },
	ObjectKind: ObjectKind,
	Owner: func(r *record) core.Ref {
		return core.RefTo[unikorn.Network](r.LoadBalancer.Status.NetworkID)
	},
	Life: func(r *record) (*unikorn.ReadMetadata, *core.Schedule) {
		return &r.LoadBalancer.Metadata.ReadMetadata, &r.Lifecycle
	},
	Ports: func(r *record) []core.Port {
		status := r.LoadBalancer.Status

		return []core.Port{
			{NetworkID: status.NetworkID, Address: status.VIPAddress},
			{NetworkID: status.NetworkID, Address: r.RequestedVIP, Requested: true},
			{Address: status.PublicIP},
		}
	},
}

func register(s *core.Server) error {
	core.Register(s, loadBalancers)

	h := &handlers{s: s}
	s.Handle("GET /api/v2/loadbalancers", h.list)
	s.Handle("POST /api/v2/loadbalancers", h.create)
	s.Handle("GET /api/v2/loadbalancers/{loadBalancerID}", h.get)
	s.Handle("PUT /api/v2/loadbalancers/{loadBalancerID}", h.update)
	s.Handle("DELETE /api/v2/loadbalancers/{loadBalancerID}", h.delete)

	s.HandleControl("GET /sandbox/v1/loadbalancers", func(*http.Request) (*core.Reply, error) {
		return core.OK(All(s)), nil
	})

	s.Advance(advance)

	return nil
}

// All returns every load balancer as it is, not as a lagging read shows it, sorted by
// ID: what a check that one is gone needs.
func All(s *core.Server) []unikorn.LoadBalancer {
	var data []byte

	s.Read(func(st *core.Store) {
		all := []unikorn.LoadBalancer{}
		for _, r := range loadBalancers.Sorted(st) {
			all = append(all, r.LoadBalancer)
		}

		// Encoded while locked, so that no caller shares a slice with the store.
		var err error
		if data, err = json.Marshal(all); err != nil {
			panic(err) // The store saves as JSON, so every record encodes.
		}
	})

	var all []unikorn.LoadBalancer
	if err := json.Unmarshal(data, &all); err != nil {
		panic(err)
	}

	return all
}
