package sandbox

import (
	"reflect"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Asynchronous lifecycles are evaluated lazily. An object records the status changes
// still ahead of it, each with the time it is due, and every request first applies
// whatever has fallen due. No goroutine owns an object, so the simulation is
// deterministic, survives a save and reload unchanged, and needs nothing stopped on
// Close.

// transition is one future change of an object: it enters To at Due.
type transition struct {
	To  string    `json:"to"`
	Due time.Time `json:"due"`
}

// schedule is the ordered list of an object's pending transitions.
type schedule []transition

// Targets of provisioning transitions besides the core provisioning statuses.
const (
	// toGone removes the object: its deprovisioning has finished.
	toGone = "gone"
)

// due removes and returns, in order, the targets whose time has come.
func (s *schedule) due(now time.Time) []string {
	var targets []string

	for len(*s) > 0 && !(*s)[0].Due.After(now) {
		targets = append(targets, (*s)[0].To)
		*s = (*s)[1:]
	}

	if len(*s) == 0 {
		*s = nil
	}

	return targets
}

// provisionSchedule is the path of a newly created object: a controller picks it up
// halfway through the delay and finishes at its end.
func provisionSchedule(now time.Time, delay time.Duration) schedule {
	return schedule{
		{To: unikorn.ProvisioningProvisioning, Due: now.Add(delay / 2)},
		{To: unikorn.ProvisioningProvisioned, Due: now.Add(delay)},
	}
}

// reprovisionSchedule is the path of an updated object: it keeps its old status in the
// update's response, shows provisioning from then on, and settles after the delay.
func reprovisionSchedule(now time.Time, delay time.Duration) schedule {
	return schedule{
		{To: unikorn.ProvisioningProvisioning, Due: now},
		{To: unikorn.ProvisioningProvisioned, Due: now.Add(delay)},
	}
}

// deprovisionSchedule is the path of a deleted object.
func deprovisionSchedule(now time.Time, delay time.Duration) schedule {
	return schedule{{To: toGone, Due: now.Add(delay)}}
}

// Writes whose lifecycles ChangesAfter tells.
const (
	WriteCreate = "create"
	WriteUpdate = "update"
	WriteDelete = "delete"
)

// ChangesAfter is when an object changes after a write of the given kind that takes
// delay to provision or deprovision, counted from the write (the first, at zero): what
// a cache that trails the object sees change, for the floor the read lag imposes on a
// benchmark.
func ChangesAfter(write string, delay time.Duration) []time.Duration {
	var lifecycle schedule

	switch write {
	case WriteCreate:
		lifecycle = provisionSchedule(time.Time{}, delay)
	case WriteUpdate:
		lifecycle = reprovisionSchedule(time.Time{}, delay)
	case WriteDelete:
		lifecycle = deprovisionSchedule(time.Time{}, delay)
	}

	changes := []time.Duration{0}

	for _, step := range lifecycle {
		// An update shows provisioning at once: one change with the write.
		if at := step.Due.Sub(time.Time{}); at > changes[len(changes)-1] {
			changes = append(changes, at)
		}
	}

	return changes
}

// applyProvisioning moves read metadata to a provisioning target. It reports whether
// the object is gone.
func applyProvisioning(metadata *unikorn.ReadMetadata, to string) bool {
	switch to {
	case toGone:
		return true
	case unikorn.ProvisioningProvisioned:
		metadata.ProvisioningStatus = unikorn.ProvisioningProvisioned
		metadata.HealthStatus = unikorn.HealthHealthy
	default:
		metadata.ProvisioningStatus = to
	}

	return false
}

// markDeleting puts an object into deprovisioning, unless it already is, and reports
// whether it changed: a repeated delete is accepted and changes nothing.
func markDeleting(metadata *unikorn.ReadMetadata, lifecycle *schedule, now time.Time, delay time.Duration) bool {
	if metadata.DeletionTime != nil {
		return false
	}

	deletionTime := now.UTC().Truncate(time.Second)
	metadata.DeletionTime = &deletionTime
	metadata.ProvisioningStatus = unikorn.ProvisioningDeprovisioning
	*lifecycle = deprovisionSchedule(now, delay)

	return true
}

// newReadMetadata is the metadata of an object the moment it is created.
func newReadMetadata(id string, write unikorn.WriteMetadata, now time.Time) unikorn.ReadMetadata {
	return unikorn.ReadMetadata{
		StaticMetadata: unikorn.StaticMetadata{
			WriteMetadata: write,
			ID:            id,
			CreationTime:  now.UTC().Truncate(time.Second),
		},
		ProvisioningStatus: unikorn.ProvisioningPending,
		HealthStatus:       unikorn.HealthUnknown,
	}
}

// projectMetadata is newReadMetadata for a project-scoped object.
func projectMetadata(id string, write unikorn.WriteMetadata, organizationID, projectID string, now time.Time) unikorn.ProjectScopedMetadata {
	return unikorn.ProjectScopedMetadata{
		OrganizationScopedMetadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   newReadMetadata(id, write, now),
			OrganizationID: organizationID,
		},
		ProjectID: projectID,
	}
}

// rewriteMetadata applies an update's metadata: name, description and tags are all
// replaced by the request.
func rewriteMetadata(metadata *unikorn.ReadMetadata, write unikorn.WriteMetadata, now time.Time) {
	metadata.WriteMetadata = write
	modified := now.UTC().Truncate(time.Second)
	metadata.ModifiedTime = &modified
}

// never stands for no transition pending.
var never = time.Date(9999, time.December, 31, 0, 0, 0, 0, time.UTC)

// nextDue is when the earliest transition of any object of the world falls due, or
// never. It finds the schedules of every kind by their type, wherever a record holds
// them (a file storage's attachments have their own), so that a kind added later is
// looked at without further work; advance applies them.
func nextDue(w *world) time.Time {
	next := never

	for _, records := range objectKinds(w) {
		if !holdsSchedules(records.Type()) {
			continue
		}

		for iterator := records.MapRange(); iterator.Next(); {
			earliestDue(iterator.Value(), &next)
		}
	}

	return next
}

// earliestDue lowers next to the first due time of any schedule within v.
func earliestDue(v reflect.Value, next *time.Time) {
	if !holdsSchedules(v.Type()) {
		return
	}

	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			earliestDue(v.Elem(), next)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			earliestDue(v.Field(i), next)
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == reflect.TypeFor[schedule]() {
			if pending := v.Interface().(schedule); len(pending) > 0 && pending[0].Due.Before(*next) { //nolint:forcetypeassert // its type
				*next = pending[0].Due
			}

			return
		}

		for i := range v.Len() {
			earliestDue(v.Index(i), next)
		}
	case reflect.Map:
		for iterator := v.MapRange(); iterator.Next(); {
			earliestDue(iterator.Value(), next)
		}
	default:
	}
}

// scheduleHolders caches, per type, whether a value of it can hold a schedule.
var scheduleHolders sync.Map

// holdsSchedules reports whether a value of type t can hold a schedule, so that the
// walk skips what cannot (names, addresses, the cloud's own structures).
func holdsSchedules(t reflect.Type) bool {
	if cached, ok := scheduleHolders.Load(t); ok {
		return cached.(bool) //nolint:forcetypeassert // stored below
	}

	holds := typeHoldsSchedules(t, map[reflect.Type]bool{})
	scheduleHolders.Store(t, holds)

	return holds
}

// typeHoldsSchedules is holdsSchedules without the cache; a type already being looked
// at (a recursive one) holds a schedule only through another part of it.
func typeHoldsSchedules(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if t == reflect.TypeFor[schedule]() {
		return true
	}

	if visiting[t] {
		return false
	}

	visiting[t] = true

	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return typeHoldsSchedules(t.Elem(), visiting)
	case reflect.Struct:
		for i := range t.NumField() {
			if typeHoldsSchedules(t.Field(i).Type, visiting) {
				return true
			}
		}
	default:
	}

	return false
}
