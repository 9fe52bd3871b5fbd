package core

import (
	"time"

	"github.com/google/uuid"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Asynchronous lifecycles are evaluated lazily. An object records the status changes
// still ahead of it, each with the time it is due, and every request first applies
// whatever has fallen due. No goroutine owns an object, so the simulation is
// deterministic, survives a save and reload unchanged, and needs nothing stopped on
// Close.

// Transition is one future change of an object: it enters To at Due.
type Transition struct {
	To  string    `json:"to"`
	Due time.Time `json:"due"`
}

// Schedule is the ordered list of an object's pending transitions.
type Schedule []Transition

// Targets of provisioning transitions besides the core provisioning statuses.
const (
	// ToGone removes the object: its deprovisioning has finished.
	ToGone = "gone"
)

// Due removes and returns, in order, the targets whose time has come.
func (s *Schedule) Due(now time.Time) []string {
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

// ProvisionSchedule is the path of a newly created object: a controller picks it up
// halfway through the delay and finishes at its end.
func ProvisionSchedule(now time.Time, delay time.Duration) Schedule {
	return Schedule{
		{To: unikorn.ProvisioningProvisioning, Due: now.Add(delay / 2)},
		{To: unikorn.ProvisioningProvisioned, Due: now.Add(delay)},
	}
}

// ReprovisionSchedule is the path of an updated object: it keeps its old status in the
// update's response, shows provisioning from then on, and settles after the delay.
func ReprovisionSchedule(now time.Time, delay time.Duration) Schedule {
	return Schedule{
		{To: unikorn.ProvisioningProvisioning, Due: now},
		{To: unikorn.ProvisioningProvisioned, Due: now.Add(delay)},
	}
}

// DeprovisionSchedule is the path of a deleted object.
func DeprovisionSchedule(now time.Time, delay time.Duration) Schedule {
	return Schedule{{To: ToGone, Due: now.Add(delay)}}
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
	var lifecycle Schedule

	switch write {
	case WriteCreate:
		lifecycle = ProvisionSchedule(time.Time{}, delay)
	case WriteUpdate:
		lifecycle = ReprovisionSchedule(time.Time{}, delay)
	case WriteDelete:
		lifecycle = DeprovisionSchedule(time.Time{}, delay)
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

// ApplyProvisioning moves read metadata to a provisioning target. It reports whether
// the object is gone.
func ApplyProvisioning(metadata *unikorn.ReadMetadata, to string) bool {
	switch to {
	case ToGone:
		return true
	case unikorn.ProvisioningProvisioned:
		metadata.ProvisioningStatus = unikorn.ProvisioningProvisioned
		metadata.HealthStatus = unikorn.HealthHealthy
	default:
		metadata.ProvisioningStatus = to
	}

	return false
}

// Provision is the controller of a kind whose records provision and go and do nothing
// else as time passes: it applies each record's due transitions to its metadata
// (Kind.Life) and removes a record once it is gone, calling gone first (to release
// its quota, say) unless gone is nil. It reports whether anything changed.
func (k *Kind[R]) Provision(st *Store, now time.Time, gone func(*R)) bool {
	changed := false
	records := k.Records(st)

	for id, r := range records {
		metadata, lifecycle := k.Life(r)

		for _, to := range lifecycle.Due(now) {
			changed = true

			if ApplyProvisioning(metadata, to) {
				if gone != nil {
					gone(r)
				}

				delete(records, id)
			}
		}
	}

	return changed
}

// MarkDeleting puts an object into deprovisioning, unless it already is, and reports
// whether it changed: a repeated delete is accepted and changes nothing.
func MarkDeleting(metadata *unikorn.ReadMetadata, lifecycle *Schedule, now time.Time, delay time.Duration) bool {
	if metadata.DeletionTime != nil {
		return false
	}

	deletionTime := now.UTC().Truncate(time.Second)
	metadata.DeletionTime = &deletionTime
	metadata.ProvisioningStatus = unikorn.ProvisioningDeprovisioning
	*lifecycle = DeprovisionSchedule(now, delay)

	return true
}

// NewReadMetadata is the metadata of an object the moment it is created.
func NewReadMetadata(id string, write unikorn.WriteMetadata, now time.Time) unikorn.ReadMetadata {
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

// ProjectMetadata is NewReadMetadata for a project-scoped object.
func ProjectMetadata(id string, write unikorn.WriteMetadata, organizationID, projectID string, now time.Time) unikorn.ProjectScopedMetadata {
	return unikorn.ProjectScopedMetadata{
		OrganizationScopedMetadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   NewReadMetadata(id, write, now),
			OrganizationID: organizationID,
		},
		ProjectID: projectID,
	}
}

// RewriteMetadata applies an update's metadata: name, description and tags are all
// replaced by the request.
func RewriteMetadata(metadata *unikorn.ReadMetadata, write unikorn.WriteMetadata, now time.Time) {
	metadata.WriteMetadata = write
	modified := now.UTC().Truncate(time.Second)
	metadata.ModifiedTime = &modified
}

// FailProvisioning puts an object into provisioning status error, where it stays until
// it is changed or deleted.
func FailProvisioning(metadata *unikorn.ReadMetadata, lifecycle *Schedule) {
	metadata.ProvisioningStatus = unikorn.ProvisioningError
	metadata.HealthStatus = unikorn.HealthError
	*lifecycle = nil
}

// Settled is the status core's conversion (ResourceReadMetadata's condition
// conversions) reports for a resource that has no status conditions, as identity's
// groups, service accounts, users and OAuth2 providers: provisioned and healthy.
func Settled(metadata unikorn.ReadMetadata) unikorn.ReadMetadata {
	metadata.ProvisioningStatus = unikorn.ProvisioningProvisioned
	metadata.HealthStatus = unikorn.HealthHealthy

	return metadata
}

// FixtureTime is the creation time of every fixture, so that a fresh sandbox always
// answers byte for byte the same, and what a test made is told from what every fresh
// start holds.
var FixtureTime = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// ProvisionedMetadata is the metadata of a fixture or a catalogue entry: settled since
// the fixtures' time.
func ProvisionedMetadata(id, name string) unikorn.ReadMetadata {
	return unikorn.ReadMetadata{
		StaticMetadata: unikorn.StaticMetadata{
			WriteMetadata: unikorn.WriteMetadata{Name: name},
			ID:            id,
			CreationTime:  FixtureTime,
		},
		ProvisioningStatus: unikorn.ProvisioningProvisioned,
		HealthStatus:       unikorn.HealthHealthy,
	}
}

// NewResourceID draws a random ID whose first character is a letter, because Unikorn
// IDs double as Kubernetes names, which must not start with a digit.
func NewResourceID() string {
	for {
		id := uuid.NewString()
		if id[0] >= 'a' {
			return id
		}
	}
}
