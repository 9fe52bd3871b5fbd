package loadbalancer

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// handlers serve region's load balancers API (pkg/handler/loadbalancer client_v2.go):
// the rules of the document are in rules.go; here is how requests reach them.
// Region's handlers read the load balancer and its network through the controller's
// cache, so they see what a lagging read sees: a create on a network the cache has not
// seen is a 404, an update of a version the cache has not caught up with fails its
// optimistic lock (409), and a delete of a load balancer the cache does not hold yet is
// a 404.
type handlers struct {
	s *core.Server
}

func metadataOf(r *record) *unikorn.ProjectScopedMetadata {
	return &r.LoadBalancer.Metadata
}

// specRequired is the required part of region `loadBalancerV2Spec`.
var specRequired = []string{
	"spec", "spec.listeners", "spec.listeners[].name", "spec.listeners[].protocol", "spec.listeners[].port",
	"spec.listeners[].pool", "spec.listeners[].pool.members",
	"spec.listeners[].pool.members[].address", "spec.listeners[].pool.members[].port",
}

// ruleError maps a refusal of package loadbalancing to region's answer.
func ruleError(err error) error {
	var refusal *Error
	if !errors.As(err, &refusal) {
		return err
	}

	if refusal.Unprocessable {
		return core.Unprocessable("%s", refusal.Message)
	}

	return core.BadRequest("%s", refusal.Message)
}

func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	items := core.SelectList(q, req.Caller, rbacLoadBalancers, loadBalancers.Records(req.Store), func(r *record) (unikorn.LoadBalancer, core.Listing) {
		status := r.LoadBalancer.Status

		return r.LoadBalancer, core.ProjectListing(&r.LoadBalancer.Metadata, status.RegionID, status.NetworkID)
	})

	// Region sorts load balancers by name, unlike the kinds it lists in ID order.
	slices.SortStableFunc(items, func(a, b unikorn.LoadBalancer) int {
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})

	return core.OK(items), nil
}

func (h *handlers) get(req *core.Request) (*core.Reply, error) {
	r, err := core.Lookup(loadBalancers.Records(req.Store), req.PathValue("loadBalancerID"), req.Caller, metadataOf, rbacLoadBalancers, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(r.LoadBalancer), nil
}

func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body unikorn.LoadBalancerCreate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(append(specRequired, "spec.networkId")...)...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := core.ValidateUUID("/spec/networkId", body.Spec.NetworkID); err != nil {
		return nil, err
	}

	if err := ruleError(CheckSchema(body.Spec.LoadBalancerSpec)); err != nil {
		return nil, err
	}

	// The network is read first, through the cache, and the caller needs the right to
	// read it and to create load balancers in its project.
	network, err := core.LookupAs[unikorn.Network](h.s.Cached(req), body.Spec.NetworkID, req.Caller, rbacNetworks, core.OpRead)
	if err != nil {
		return nil, err
	}

	metadata := network.Metadata
	if err := core.RequireProject(req.Store, req.Caller, metadata.OrganizationID, metadata.ProjectID, rbacLoadBalancers, core.OpCreate); err != nil {
		return nil, err
	}

	var vip string

	if body.Spec.VIPAddress != "" {
		if vip, err = CheckVIP(body.Spec.VIPAddress, network.Status.Prefix); err != nil {
			return nil, ruleError(err)
		}
	}

	spec, err := Normalize(body.Spec.LoadBalancerSpec)
	if err != nil {
		return nil, ruleError(err)
	}

	r := &record{
		LoadBalancer: unikorn.LoadBalancer{
			Metadata: core.ProjectMetadata(core.NewResourceID(), body.Metadata, metadata.OrganizationID, metadata.ProjectID, req.Now),
			Spec:     spec,
			Status:   unikorn.LoadBalancerStatus{RegionID: network.Status.RegionID, NetworkID: metadata.ID},
		},
		RequestedVIP: vip,
	}

	// The saga charges the quota before it creates the load balancer.
	allocation, err := core.Allocate(req.Store, metadata.OrganizationID, metadata.ProjectID, charge(r.LoadBalancer.Metadata.ID, *spec.PublicIP), req.Now)
	if err != nil {
		return nil, err
	}

	r.AllocationID = allocation.Metadata.ID

	r.Lifecycle = core.ProvisionSchedule(req.Now, h.s.ProvisionDelay())
	loadBalancers.Records(req.Store)[r.LoadBalancer.Metadata.ID] = r

	// The load balancer is owned by its network: one the cache still showed but that
	// is gone or going takes it along.
	if current, ok := core.Get[unikorn.Network](req.Store, metadata.ID); !ok || current.Metadata.DeletionTime != nil {
		core.MarkDeleting(&r.LoadBalancer.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay())
	}

	return core.Created(r.LoadBalancer), nil
}

func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	var body unikorn.LoadBalancerUpdate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(specRequired...)...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := ruleError(CheckSchema(body.Spec)); err != nil {
		return nil, err
	}

	id := req.PathValue("loadBalancerID")
	cache := h.s.Cached(req)

	current, err := core.Lookup(loadBalancers.Records(cache), id, req.Caller, metadataOf, rbacLoadBalancers, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	if current.LoadBalancer.Metadata.DeletionTime != nil {
		return nil, core.Unprocessable("load balancer is being deleted")
	}

	if _, err := core.LookupAs[unikorn.Network](cache, current.LoadBalancer.Status.NetworkID, req.Caller, rbacNetworks, core.OpRead); err != nil {
		return nil, err
	}

	spec, err := Normalize(body.Spec)
	if err != nil {
		return nil, ruleError(err)
	}

	if err := CheckImmutable(current.LoadBalancer.Spec.Listeners, spec.Listeners); err != nil {
		return nil, ruleError(err)
	}

	// The saga moves the quota first and moves it back when the patch fails.
	allocation, err := core.Recharge(req.Store, current.AllocationID, charge(id, *spec.PublicIP), req.Now)
	if err != nil {
		return nil, err
	}

	r, ok := loadBalancers.Records(req.Store)[id]
	if !ok {
		// The patch of an object that is gone fails without a conflict.
		return nil, core.ServerError()
	}

	// The patch carries the version the handler read, which the cache may trail.
	if !core.SameVersion(current, r) {
		return nil, core.Conflict()
	}

	if allocation != nil {
		core.Allocations.Put(req.Store, allocation.Metadata.ID, allocation)
	}

	lb := &r.LoadBalancer

	// A write that changes nothing leaves the object, and its provisioning, as it was.
	if reflect.DeepEqual(lb.Metadata.WriteMetadata, body.Metadata) && reflect.DeepEqual(lb.Spec, spec) {
		return core.Accepted(r.LoadBalancer), nil
	}

	core.RewriteMetadata(&lb.Metadata.ReadMetadata, body.Metadata, req.Now)
	lb.Spec = spec

	// Without an observed generation the status goes on saying what it said until the
	// controller takes the change up; the public IP follows the new spec then.
	r.Lifecycle = core.ProvisionSchedule(req.Now, h.s.ProvisionDelay())

	return core.Accepted(r.LoadBalancer), nil
}

// charge is the quota charge of a load balancer: one, and a public IP when
// it has one.
func charge(id string, publicIP bool) unikorn.AllocationWrite {
	return core.Charge(AllocationKind, id, Allocations(publicIP)...)
}

func (h *handlers) delete(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("loadBalancerID")

	cached, err := core.Lookup(loadBalancers.Records(h.s.Cached(req)), id, req.Caller, metadataOf, rbacLoadBalancers, core.OpDelete)
	if err != nil {
		return nil, err
	}

	if cached.LoadBalancer.Metadata.DeletionTime != nil {
		return core.Accepted(nil), nil
	}

	r, ok := loadBalancers.Records(req.Store)[id]
	if !ok {
		return nil, core.NotFound()
	}

	core.MarkDeleting(&r.LoadBalancer.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay())

	return core.Accepted(nil), nil
}

// advance applies the load balancers' due transitions one by one in the
// order they fell due, so that of two asking for one virtual IP the first to come up
// takes it, and reports whether any changed. One that is gone releases its quota.
func advance(st *core.Store, now time.Time) bool {
	changed := false

	for {
		var next *record

		for _, r := range loadBalancers.Sorted(st) {
			if due := r.Lifecycle; len(due) > 0 && !due[0].Due.After(now) && (next == nil || due[0].Due.Before(next.Lifecycle[0].Due)) {
				next = r
			}
		}

		if next == nil {
			return changed
		}

		changed = true
		to := next.Lifecycle[0].To

		next.Lifecycle = next.Lifecycle[1:]
		if len(next.Lifecycle) == 0 {
			next.Lifecycle = nil
		}

		if to == unikorn.ProvisioningProvisioned && !realize(st, next) {
			continue
		}

		if core.ApplyProvisioning(&next.LoadBalancer.Metadata.ReadMetadata, to) {
			core.Allocations.Delete(st, next.AllocationID)
			loadBalancers.Delete(st, next.LoadBalancer.Metadata.ID)
		}
	}
}

// realize is the cloud load balancer coming up: it keeps its virtual IP,
// or gets the one it asked for or the network's next free address, and gains or loses
// a public IP as its spec says. A virtual IP that another port holds fails it, as the
// cloud refuses the port. It reports whether the load balancer is provisioned.
func realize(st *core.Store, r *record) bool {
	lb := &r.LoadBalancer
	_, network := core.Get[unikorn.Network](st, lb.Status.NetworkID)

	if lb.Status.VIPAddress == "" {
		vip := r.RequestedVIP

		switch {
		case !network:
			vip = ""
		case vip == "":
			vip = core.AllocateAddress(st, lb.Status.NetworkID)
		case core.UsedAddresses(st, lb.Status.NetworkID, lb.Metadata.ID, false)[vip]:
			vip = ""
		}

		if vip == "" {
			core.FailProvisioning(&lb.Metadata.ReadMetadata, &r.Lifecycle)

			return false
		}

		lb.Status.VIPAddress = vip
	}

	wantsPublicIP := lb.Spec.PublicIP != nil && *lb.Spec.PublicIP

	switch {
	case wantsPublicIP && lb.Status.PublicIP == "":
		lb.Status.PublicIP = core.AllocatePublicAddress(st)
	case !wantsPublicIP:
		lb.Status.PublicIP = ""
	}

	return true
}
