package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Load balancers follow region's handler (pkg/handler/loadbalancer): the rules of the
// document are in package loadbalancing; here is how requests reach them. Region's
// handlers read the load balancer and its network through the controller's cache, so
// they see what a lagging read sees: a create on a network the cache has not seen is a
// 404, an update of a version the cache has not caught up with fails its optimistic
// lock (409), and a delete of a load balancer the cache does not hold yet is a 404.

func loadBalancerMetadata(record *loadBalancerRecord) *unikorn.ProjectScopedMetadata {
	return &record.LoadBalancer.Metadata
}

// loadBalancerSpecRequired is the required part of region `loadBalancerV2Spec`.
var loadBalancerSpecRequired = []string{
	"spec", "spec.listeners", "spec.listeners[].name", "spec.listeners[].protocol", "spec.listeners[].port",
	"spec.listeners[].pool", "spec.listeners[].pool.members",
	"spec.listeners[].pool.members[].address", "spec.listeners[].pool.members[].port",
}

// ruleError maps a refusal of package loadbalancing to region's answer.
func ruleError(err error) error {
	var refusal *loadbalancing.Error
	if !errors.As(err, &refusal) {
		return err
	}

	if refusal.Unprocessable {
		return errUnprocessable("%s", refusal.Message)
	}

	return errBadRequest("%s", refusal.Message)
}

func (s *Sandbox) listLoadBalancers(req *core.Request) (*core.Reply, error) {
	q, err := parseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	items := selectList(q, req.Caller, s.world.LoadBalancers, func(record *loadBalancerRecord) (unikorn.LoadBalancer, listing) {
		status := record.LoadBalancer.Status

		return record.LoadBalancer, projectListing(&record.LoadBalancer.Metadata, status.RegionID, status.NetworkID)
	})

	// Region sorts load balancers by name, unlike the kinds it lists in ID order.
	slices.SortStableFunc(items, func(a, b unikorn.LoadBalancer) int {
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})

	return replyOK(items), nil
}

func (s *Sandbox) getLoadBalancer(req *core.Request) (*core.Reply, error) {
	record, err := lookup(s.world.LoadBalancers, req.PathValue("loadBalancerID"), req.Caller, loadBalancerMetadata, rbacLoadBalancers, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(record.LoadBalancer), nil
}

func (s *Sandbox) createLoadBalancer(req *core.Request) (*core.Reply, error) {
	var body unikorn.LoadBalancerCreate
	if err := decodeBody(req.Request, &body, requiredWith(append(loadBalancerSpecRequired, "spec.networkId")...)...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateUUID("/spec/networkId", body.Spec.NetworkID); err != nil {
		return nil, err
	}

	if err := ruleError(loadbalancing.CheckSchema(body.Spec.LoadBalancerSpec)); err != nil {
		return nil, err
	}

	// The network is read first, through the cache, and the caller needs the right to
	// read it and to create load balancers in its project.
	network, err := core.LookupAs[unikorn.Network](s.core.Cached(req), body.Spec.NetworkID, req.Caller, rbacNetworks, opRead)
	if err != nil {
		return nil, err
	}

	metadata := network.Metadata
	if err := core.RequireProject(req.Store, req.Caller, metadata.OrganizationID, metadata.ProjectID, rbacLoadBalancers, opCreate); err != nil {
		return nil, err
	}

	var vip string

	if body.Spec.VIPAddress != "" {
		if vip, err = loadbalancing.CheckVIP(body.Spec.VIPAddress, network.Status.Prefix); err != nil {
			return nil, ruleError(err)
		}
	}

	spec, err := loadbalancing.Normalize(body.Spec.LoadBalancerSpec)
	if err != nil {
		return nil, ruleError(err)
	}

	record := &loadBalancerRecord{
		LoadBalancer: unikorn.LoadBalancer{
			Metadata: projectMetadata(newResourceID(), body.Metadata, metadata.OrganizationID, metadata.ProjectID, req.Now),
			Spec:     spec,
			Status:   unikorn.LoadBalancerStatus{RegionID: network.Status.RegionID, NetworkID: metadata.ID},
		},
		RequestedVIP: vip,
	}

	// The saga charges the quota before it creates the load balancer.
	allocation, err := core.Allocate(req.Store, metadata.OrganizationID, metadata.ProjectID, loadBalancerCharge(record.LoadBalancer.Metadata.ID, *spec.PublicIP), req.Now)
	if err != nil {
		return nil, err
	}

	record.AllocationID = allocation.Metadata.ID

	record.Lifecycle = provisionSchedule(req.Now, s.core.ProvisionDelay())
	s.world.LoadBalancers[record.LoadBalancer.Metadata.ID] = record

	// The load balancer is owned by its network: one the cache still showed but that
	// is gone or going takes it along.
	if current, ok := core.Get[unikorn.Network](req.Store, metadata.ID); !ok || current.Metadata.DeletionTime != nil {
		markDeleting(&record.LoadBalancer.Metadata.ReadMetadata, &record.Lifecycle, req.Now, s.core.DeprovisionDelay())
	}

	return replyCreated(record.LoadBalancer), nil
}

func (s *Sandbox) updateLoadBalancer(req *core.Request) (*core.Reply, error) {
	var body unikorn.LoadBalancerUpdate
	if err := decodeBody(req.Request, &body, requiredWith(loadBalancerSpecRequired...)...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := ruleError(loadbalancing.CheckSchema(body.Spec)); err != nil {
		return nil, err
	}

	id := req.PathValue("loadBalancerID")
	cache := s.cached(req)

	current, err := lookup(cache.LoadBalancers, id, req.Caller, loadBalancerMetadata, rbacLoadBalancers, opUpdate)
	if err != nil {
		return nil, err
	}

	if current.LoadBalancer.Metadata.DeletionTime != nil {
		return nil, errUnprocessable("load balancer is being deleted")
	}

	if _, err := core.LookupAs[unikorn.Network](cache.st, current.LoadBalancer.Status.NetworkID, req.Caller, rbacNetworks, opRead); err != nil {
		return nil, err
	}

	spec, err := loadbalancing.Normalize(body.Spec)
	if err != nil {
		return nil, ruleError(err)
	}

	if err := loadbalancing.CheckImmutable(current.LoadBalancer.Spec.Listeners, spec.Listeners); err != nil {
		return nil, ruleError(err)
	}

	// The saga moves the quota first and moves it back when the patch fails.
	allocation, err := core.Recharge(req.Store, current.AllocationID, loadBalancerCharge(id, *spec.PublicIP), req.Now)
	if err != nil {
		return nil, err
	}

	record, ok := s.world.LoadBalancers[id]
	if !ok {
		// The patch of an object that is gone fails without a conflict.
		return nil, errServer()
	}

	// The patch carries the version the handler read, which the cache may trail.
	if !sameRecord(record, current) {
		return nil, errConflict()
	}

	if allocation != nil {
		s.world.Allocations[allocation.Metadata.ID] = allocation
	}

	lb := &record.LoadBalancer

	// A write that changes nothing leaves the object, and its provisioning, as it was.
	if reflect.DeepEqual(lb.Metadata.WriteMetadata, body.Metadata) && reflect.DeepEqual(lb.Spec, spec) {
		return replyAccepted(record.LoadBalancer), nil
	}

	rewriteMetadata(&lb.Metadata.ReadMetadata, body.Metadata, req.Now)
	lb.Spec = spec

	// Without an observed generation the status goes on saying what it said until the
	// controller takes the change up; the public IP follows the new spec then.
	record.Lifecycle = provisionSchedule(req.Now, s.core.ProvisionDelay())

	return replyAccepted(record.LoadBalancer), nil
}

// loadBalancerCharge is the quota charge of a load balancer: one, and a public IP when
// it has one.
func loadBalancerCharge(id string, publicIP bool) unikorn.AllocationWrite {
	return core.Charge(loadbalancing.AllocationKind, id, loadbalancing.Allocations(publicIP)...)
}

// sameRecord reports whether two versions of a record are the same version.
func sameRecord(a, b *loadBalancerRecord) bool {
	left, errLeft := json.Marshal(a)
	right, errRight := json.Marshal(b)

	return errLeft == nil && errRight == nil && bytes.Equal(left, right)
}

func (s *Sandbox) deleteLoadBalancer(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("loadBalancerID")

	cached, err := lookup(s.cached(req).LoadBalancers, id, req.Caller, loadBalancerMetadata, rbacLoadBalancers, opDelete)
	if err != nil {
		return nil, err
	}

	if cached.LoadBalancer.Metadata.DeletionTime != nil {
		return replyAccepted(nil), nil
	}

	record, ok := s.world.LoadBalancers[id]
	if !ok {
		return nil, errNotFound()
	}

	markDeleting(&record.LoadBalancer.Metadata.ReadMetadata, &record.Lifecycle, req.Now, s.core.DeprovisionDelay())

	return replyAccepted(nil), nil
}

// advanceLoadBalancers applies the load balancers' due transitions one by one in the
// order they fell due, so that of two asking for one virtual IP the first to come up
// takes it, and reports whether any changed. One that is gone releases its quota.
func (w *world) advanceLoadBalancers(now time.Time) bool {
	changed := false

	for {
		var next *loadBalancerRecord

		for _, record := range byID(w.LoadBalancers) {
			if due := record.Lifecycle; len(due) > 0 && !due[0].Due.After(now) && (next == nil || due[0].Due.Before(next.Lifecycle[0].Due)) {
				next = record
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

		if to == unikorn.ProvisioningProvisioned && !w.realizeLoadBalancer(next) {
			continue
		}

		if applyProvisioning(&next.LoadBalancer.Metadata.ReadMetadata, to) {
			delete(w.Allocations, next.AllocationID)
			delete(w.LoadBalancers, next.LoadBalancer.Metadata.ID)
		}
	}
}

// realizeLoadBalancer is the cloud load balancer coming up: it keeps its virtual IP,
// or gets the one it asked for or the network's next free address, and gains or loses
// a public IP as its spec says. A virtual IP that another port holds fails it, as the
// cloud refuses the port. It reports whether the load balancer is provisioned.
func (w *world) realizeLoadBalancer(record *loadBalancerRecord) bool {
	lb := &record.LoadBalancer
	_, network := core.Get[unikorn.Network](w.st, lb.Status.NetworkID)

	if lb.Status.VIPAddress == "" {
		vip := record.RequestedVIP

		switch {
		case !network:
			vip = ""
		case vip == "":
			vip = core.AllocateAddress(w.st, lb.Status.NetworkID)
		case core.UsedAddresses(w.st, lb.Status.NetworkID, lb.Metadata.ID, false)[vip]:
			vip = ""
		}

		if vip == "" {
			failProvisioning(&lb.Metadata.ReadMetadata, &record.Lifecycle)

			return false
		}

		lb.Status.VIPAddress = vip
	}

	wantsPublicIP := lb.Spec.PublicIP != nil && *lb.Spec.PublicIP

	switch {
	case wantsPublicIP && lb.Status.PublicIP == "":
		lb.Status.PublicIP = core.AllocatePublicAddress(w.st)
	case !wantsPublicIP:
		lb.Status.PublicIP = ""
	}

	return true
}

// collectLoadBalancers deletes the load balancers of a network that is going, as
// Kubernetes collects what an owner that is deleted owns.
func (w *world) collectLoadBalancers(networkID string, now time.Time, delay time.Duration) {
	for _, record := range w.LoadBalancers {
		if record.LoadBalancer.Status.NetworkID == networkID {
			markDeleting(&record.LoadBalancer.Metadata.ReadMetadata, &record.Lifecycle, now, delay)
		}
	}
}
