package sandbox

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/loadbalancer"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/server"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/volumes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The control API's types, shared with core.
type (
	// Stats counts the API requests served since start or the last reset.
	Stats = core.Stats
	// FaultRule makes matching API requests fail.
	FaultRule = core.FaultRule
	// Settings change timings and harshness at run time.
	Settings = core.Settings
	// Object is one thing the sandbox holds, as it is now.
	Object = core.Object
)

// Fault phases.
const (
	FaultPhaseBefore = core.FaultPhaseBefore
	FaultPhaseAfter  = core.FaultPhaseAfter
)

// Stats returns the request counters.
func (s *Sandbox) Stats() Stats { return s.core.Stats() }

// ResetStats zeroes the request counters.
func (s *Sandbox) ResetStats() { s.core.ResetStats() }

// AddFault installs a fault rule and returns its ID.
func (s *Sandbox) AddFault(rule FaultRule) (string, error) { return s.core.AddFault(rule) }

// ClearFaults removes every fault rule.
func (s *Sandbox) ClearFaults() { s.core.ClearFaults() }

// UpdateSettings changes timings and harshness. Delays apply to transitions that start
// afterwards, read lag to writes made afterwards.
func (s *Sandbox) UpdateSettings(settings Settings) error { return s.core.UpdateSettings(settings) }

// Objects returns everything users can make that exists now, fixtures included,
// sorted by kind and ID. Objects being deleted are listed until they are gone.
func (s *Sandbox) Objects() []Object { return s.core.Objects() }

// Allocations returns every identity allocation in every project, sorted by ID: the
// administrator's view that leak checks need.
func (s *Sandbox) Allocations() []unikorn.Allocation {
	var allocations []unikorn.Allocation

	s.core.Read(func(st *core.Store) { allocations = core.AllAllocations(st) })

	return allocations
}

// ProjectReferences names what holds a project's deletion now: region's objects in it
// and compute's instances, the services' references identity would keep.
func (s *Sandbox) ProjectReferences(projectID string) []string {
	var holders []string

	s.core.Read(func(st *core.Store) {
		for _, holder := range core.Holders(st, core.RefTo[unikorn.Project](projectID)) {
			holders = append(holders, holder.String())
		}
	})

	return holders
}

// Writes whose lifecycles ChangesAfter tells.
const (
	WriteCreate = core.WriteCreate
	WriteUpdate = core.WriteUpdate
	WriteDelete = core.WriteDelete
)

// ChangesAfter is when an object changes after a write of the given kind that takes
// delay to provision or deprovision, counted from the write (the first, at zero): what
// a cache that trails the object sees change, for the floor the read lag imposes on a
// benchmark.
func ChangesAfter(write string, delay time.Duration) []time.Duration {
	return core.ChangesAfter(write, delay)
}

// LaterShown is when a cache that trails writes by up to lag shows the second of two
// changes to one object, counted from the first (core.LaterShown says how).
func LaterShown(firstShown, secondMade, secondShown, lag time.Duration) time.Duration {
	return core.LaterShown(firstShown, secondMade, secondShown, lag)
}

// FileStorageUsage is what the storage back end reports of a share's use.
type FileStorageUsage = storage.Usage

// FileStorage returns every file storage as it is, in ID order, rather than as a
// lagging read shows it: the administrator's view that leak checks need.
func (s *Sandbox) FileStorage() []unikorn.FileStorage { return storage.All(s.core) }

// SetFileStorageUsage makes the storage back end report usedBytes in use on a share,
// as data written through its mounts would.
func (s *Sandbox) SetFileStorageUsage(id string, usage FileStorageUsage) error {
	return storage.SetUsage(s.core, id, usage)
}

// VolumeFile is a file a guest wrote to a volume.
type VolumeFile = volumes.File

// Volumes returns every volume as it is, in ID order, rather than as a lagging read
// shows it: the administrator's view that leak checks need.
func (s *Sandbox) Volumes() []unikorn.Volume { return volumes.All(s.core) }

// WriteVolumeFile writes a file to a volume as the guest of the server it is attached
// to would; a volume attached to no server takes none.
func (s *Sandbox) WriteVolumeFile(id string, file VolumeFile) error {
	return volumes.WriteFile(s.core, id, file)
}

// VolumeFiles returns the files guests wrote to a volume, by path.
func (s *Sandbox) VolumeFiles(id string) (map[string]string, error) { return volumes.Files(s.core, id) }

// MountDelay is how long after an attachment is asked for, with a provisioning time
// of delay, the sandbox's storage reports the network's mount source.
func MountDelay(delay time.Duration) time.Duration { return storage.MountDelay(delay) }

// LoadBalancers returns every load balancer as it is, not as a lagging read shows it,
// sorted by ID: what a check that one is gone needs.
func (s *Sandbox) LoadBalancers() []unikorn.LoadBalancer { return loadbalancer.All(s.core) }

// FailServer makes a server's provisioning fail, as a cloud failure would: its status
// becomes error and stays so until it is updated or deleted.
func (s *Sandbox) FailServer(id string) error { return server.Fail(s.core, id) }

// ImageSource says what the sandbox's cloud finds at an image URI.
type ImageSource = image.Source

// Outcomes of reading and importing the image at a URI.
const (
	ImageSourceReady      = image.SourceReady
	ImageSourceFailed     = image.SourceFailed
	ImageSourceUnreadable = image.SourceUnreadable
	ImageSourceNotRaw     = image.SourceNotRaw
)

// SetImageSource says what imports from source.URI find there from now on. Imports
// already under way keep the outcome they started with.
func (s *Sandbox) SetImageSource(source ImageSource) error { return image.SetSource(s.core, source) }

// ClearImageSources forgets every image source: every URI holds a raw image again.
func (s *Sandbox) ClearImageSources() { image.ClearSources(s.core) }

// ComputePrefix is where the compute service is mounted (its declaration in
// internal/services says where): its catalogue paths are the same as region's, so it
// needs a base URL of its own.
var ComputePrefix = instance.Prefix

// InstanceServers returns the region servers behind a compute instance, whatever the
// compute service itself believes: the administrator's view that shows a missing or
// duplicated server.
func (s *Sandbox) InstanceServers(instanceID string) ([]unikorn.Server, error) {
	return instance.Servers(s.core, instanceID)
}
