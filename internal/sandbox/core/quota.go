package core

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Every service charges what it makes to its organization's quota the way Unikorn's
// do, through identity's allocations: one allocation per object, totalled over the
// organization against the quota of each kind. The allocations and the quotas are
// identity's (its allocations and quotas families serve them); charging them is a
// call every family makes, so it is here.

// ObjectAllocation is the kind of an allocation among the objects the sandbox holds.
const ObjectAllocation = "allocation"

// Allocations are identity's allocations, by ID.
var Allocations = &Kind[unikorn.Allocation]{
	Name: "allocations",
	Object: func(_ *Store, a *unikorn.Allocation) Object {
		return ProjectObject(ObjectAllocation, &a.Metadata)
	},
}

// quotaLimits maps organization ID to quota kind to quantity: the quotas set, which an
// organization without them takes from the kinds' defaults.
var quotaLimits = &Section[map[string]map[string]int]{Name: "quotas"}

// QuotaKind is a quota kind the way identity presents it, as its chart declares it.
type QuotaKind struct {
	Name        string
	DisplayName string
	Description string
	// Default is the chart's default, 0 for a kind without one.
	Default int
}

// QuotaKinds registers the quota kinds identity knows.
func (s *Server) QuotaKinds(kinds ...QuotaKind) {
	for _, kind := range kinds {
		s.reg.quotaKinds[kind.Name] = kind
	}
}

// Allocate charges a new allocation to the organization's quota: 403, and nothing
// stored, when it does not fit.
func Allocate(st *Store, organizationID, projectID string, write unikorn.AllocationWrite, now time.Time) (*unikorn.Allocation, error) {
	metadata := ProjectMetadata(NewResourceID(), write.Metadata, organizationID, projectID, now)
	// Allocations have no controller: they are settled the moment they exist.
	ApplyProvisioning(&metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

	allocation := &unikorn.Allocation{Metadata: metadata, Spec: write.Spec}

	if err := CheckQuota(st, allocation); err != nil {
		return nil, err
	}

	Allocations.Put(st, allocation.Metadata.ID, allocation)

	return allocation, nil
}

// Charge is the allocation a service makes for an object of its own: kind names the
// object's kind to identity, id the object, lines what it uses.
func Charge(kind, id string, lines ...unikorn.ResourceAllocation) unikorn.AllocationWrite {
	return unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec:     unikorn.AllocationSpec{Kind: kind, ID: id, Allocations: lines},
	}
}

// Recharge is the allocation of allocationID moved to write, checked against the quota
// but not stored: the caller stores it once what it charges has changed. It is nil,
// with no error, when there is no such allocation.
func Recharge(st *Store, allocationID string, write unikorn.AllocationWrite, now time.Time) (*unikorn.Allocation, error) {
	stored, ok := Allocations.Get(st, allocationID)
	if !ok {
		return nil, nil
	}

	updated := CopyAllocation(stored)
	RewriteMetadata(&updated.Metadata.ReadMetadata, write.Metadata, now)
	updated.Spec = write.Spec

	if err := CheckQuota(st, &updated); err != nil {
		return nil, err
	}

	return &updated, nil
}

// CheckQuota totals committed and reserved amounts over every allocation of the
// organization, with candidate in place of any stored allocation of the same ID, and
// forbids the candidate if any kind that has a quota would exceed it. Kinds without a
// quota are never limited. The server's lock serializes these decisions.
func CheckQuota(st *Store, candidate *unikorn.Allocation) error {
	organizationID := candidate.Metadata.OrganizationID
	totals := map[string]int{}

	for id, allocation := range Allocations.Records(st) {
		if id != candidate.Metadata.ID && allocation.Metadata.OrganizationID == organizationID {
			addAllocation(totals, allocation)
		}
	}

	addAllocation(totals, candidate)

	limits := QuotaLimits(st, organizationID)

	kinds := make([]string, 0, len(limits))
	for kind := range limits {
		kinds = append(kinds, kind)
	}

	sort.Strings(kinds)

	for _, kind := range kinds {
		if totals[kind] > limits[kind] {
			return Forbidden("total %s allocation of %d would exceed quota limit of %d", kind, totals[kind], limits[kind])
		}
	}

	return nil
}

func addAllocation(totals map[string]int, allocation *unikorn.Allocation) {
	for _, line := range allocation.Spec.Allocations {
		totals[line.Kind] += line.Committed + line.Reserved
	}
}

// QuotaLimits returns a copy of the organization's quantities by kind. An
// organization without a quota object gets identity's defaults.
func QuotaLimits(st *Store, organizationID string) map[string]int {
	limits := map[string]int{}

	if stored, ok := (*quotaLimits.Get(st))[organizationID]; ok {
		maps.Copy(limits, stored)

		return limits
	}

	for kind, meta := range st.reg.quotaKinds {
		if meta.Default > 0 {
			limits[kind] = meta.Default
		}
	}

	return limits
}

// SetQuotaLimits makes limits the organization's quota.
func SetQuotaLimits(st *Store, organizationID string, limits map[string]int) {
	all := quotaLimits.Get(st)
	if *all == nil {
		*all = map[string]map[string]int{}
	}

	(*all)[organizationID] = limits
}

// OverrideQuotas sets the organization's quantities of the given kinds. Only kinds
// identity knows are accepted, so that a misspelt kind is not silently unlimited.
func (s *Server) OverrideQuotas(organizationID string, quantities map[string]int) error {
	if len(quantities) == 0 {
		return nil
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	limits := QuotaLimits(s.store, organizationID)

	for kind, quantity := range quantities {
		if _, known := s.reg.quotaKinds[kind]; !known {
			return fmt.Errorf("quota kind %q is not one of %s", kind, strings.Join(slices.Sorted(maps.Keys(s.reg.quotaKinds)), ", "))
		}

		if quantity < 0 {
			return fmt.Errorf("quota of %s is %d: a quantity is 0 or more", kind, quantity)
		}

		limits[kind] = quantity
	}

	SetQuotaLimits(s.store, organizationID, limits)

	return nil
}

// Quotas is identity `quotasRead` for an organization, sorted by kind.
func Quotas(st *Store, organizationID string) unikorn.Quotas {
	committed, reserved := map[string]int{}, map[string]int{}

	for _, allocation := range Allocations.Records(st) {
		if allocation.Metadata.OrganizationID != organizationID {
			continue
		}

		for _, line := range allocation.Spec.Allocations {
			committed[line.Kind] += line.Committed
			reserved[line.Kind] += line.Reserved
		}
	}

	result := unikorn.Quotas{Quotas: []unikorn.Quota{}}

	for kind, quantity := range QuotaLimits(st, organizationID) {
		meta, known := st.reg.quotaKinds[kind]
		if !known {
			meta = QuotaKind{DisplayName: kind}
		}

		used := committed[kind] + reserved[kind]

		result.Quotas = append(result.Quotas, unikorn.Quota{
			Kind:        kind,
			Quantity:    quantity,
			Used:        used,
			Free:        quantity - used,
			Committed:   committed[kind],
			Reserved:    reserved[kind],
			DisplayName: meta.DisplayName,
			Description: meta.Description,
			Default:     meta.Default,
		})
	}

	slices.SortFunc(result.Quotas, func(a, b unikorn.Quota) int {
		return strings.Compare(a.Kind, b.Kind)
	})

	return result
}

// CopyAllocation deep-copies an allocation so that the copy shares no slices.
func CopyAllocation(allocation *unikorn.Allocation) unikorn.Allocation {
	out := *allocation
	out.Metadata.Tags = slices.Clone(allocation.Metadata.Tags)
	out.Spec.Allocations = slices.Clone(allocation.Spec.Allocations)

	if allocation.Metadata.ModifiedTime != nil {
		modified := *allocation.Metadata.ModifiedTime
		out.Metadata.ModifiedTime = &modified
	}

	return out
}

// AllAllocations is every allocation in every project, copied and sorted by ID: the
// administrator's view that leak checks need.
func AllAllocations(st *Store) []unikorn.Allocation {
	allocations := make([]unikorn.Allocation, 0, len(Allocations.Records(st)))
	for _, allocation := range Allocations.Sorted(st) {
		allocations = append(allocations, CopyAllocation(allocation))
	}

	return allocations
}
