package sandbox

import (
	"reflect"
	"slices"
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
// never. It finds the schedules of every kind by their type, so that a kind added
// later is looked at without further work; advance applies them.
func nextDue(w *world) time.Time {
	next := never

	for _, records := range objectKinds(w) {
		paths := schedulePaths(records.Type().Elem().Elem())
		if len(paths) == 0 {
			continue
		}

		for iterator := records.MapRange(); iterator.Next(); {
			record := iterator.Value().Elem()

			for _, path := range paths {
				if pending := record.FieldByIndex(path).Interface().(schedule); len(pending) > 0 && pending[0].Due.Before(next) { //nolint:forcetypeassert // found by its type
					next = pending[0].Due
				}
			}
		}
	}

	return next
}

// scheduleFields caches, per record type, the index paths of its schedule fields.
var scheduleFields sync.Map

// schedulePaths returns the index paths of the schedule fields of a record type,
// nested structs included.
func schedulePaths(t reflect.Type) [][]int {
	if cached, ok := scheduleFields.Load(t); ok {
		return cached.([][]int) //nolint:forcetypeassert // stored below
	}

	var paths [][]int

	var walk func(t reflect.Type, prefix []int)

	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			field := t.Field(i)
			path := append(slices.Clone(prefix), i)

			switch {
			case field.Type == reflect.TypeFor[schedule]():
				paths = append(paths, path)
			case field.Type.Kind() == reflect.Struct:
				walk(field.Type, path)
			}
		}
	}

	walk(t, nil)
	scheduleFields.Store(t, paths)

	return paths
}
