package compute

import (
	"context"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
)

// Instances is everything the provider asks of an instance back end. There are two:
// RegionInstances, this package's own saga that realizes an instance as a region server tagged
// with its ID and charged to identity (only a service account or a platform administrator may call those APIs),
// and the compute service's public instance API, which any user may call. The
// signatures speak only of this package's types, never of servers or allocations, so
// that the Terraform types cannot tell the back ends apart.
//
// Errors are this package's typed errors (ValidationError, QuotaError, WaitError, …)
// or wrap ErrNotFound where something is definitely gone.
type Instances interface {
	// Validate checks a Spec that would create an instance against the catalogue and
	// returns every problem at once, or where the instance would be placed.
	Validate(ctx context.Context, spec Spec) (*Location, error)
	// ValidateUpdate checks only what an in-place update can change.
	ValidateUpdate(ctx context.Context, spec Spec) error

	// Create sends the instance; it returns as soon as the back end has accepted it.
	// A returned instance exists and must be tracked even when err is not nil.
	Create(ctx context.Context, spec Spec) (*Instance, error)
	// WaitReady waits until a created instance is provisioned and running.
	WaitReady(ctx context.Context, instance *Instance) (*Instance, error)
	// Get reads one instance; an error wrapping ErrNotFound means it is definitely gone.
	Get(ctx context.Context, ref Ref) (*Instance, error)
	// Lookup is Get for an instance known by its name in a network.
	Lookup(ctx context.Context, ref Ref, name string) (*Instance, error)
	// Update changes what can change in place and waits until the change is visible.
	Update(ctx context.Context, ref Ref, spec Spec) (*Instance, error)
	// Delete removes the instance and what it holds. last is the instance as the
	// caller last read it: its Ref at least, and its flavor and creation time where
	// known, which a back end that deletes by ID trusts rather than read the instance
	// again. handle is the last Handle read for it (kept by the caller across runs),
	// or empty when none is known.
	Delete(ctx context.Context, last *Instance, handle Handle) error
	// List finds the instances a query selects.
	List(ctx context.Context, query ListQuery) (*Listing, error)

	// Power starts, stops or reboots the instance and waits for the power state.
	Power(ctx context.Context, ref Ref, op PowerOperation, progress Progress) (*Instance, error)
	// Snapshot makes an image of the instance's disk and waits until it is ready.
	Snapshot(ctx context.Context, ref Ref, request SnapshotRequest, progress Progress) (*image.Image, error)
	// SSHKey returns the private key the cloud generated for the instance.
	SSHKey(ctx context.Context, ref Ref) (string, error)
	// ConsoleOutput returns the last lines of the instance's console.
	ConsoleOutput(ctx context.Context, ref Ref, lines int) (string, error)
}

// Handle is what a back end needs to finish deleting an instance that can no longer be
// read (its quota charge, say). Only the back end that issued it understands it; the
// provider keeps it in private state and hands it back to Delete.
type Handle string

// Location is where a validated instance would live.
type Location struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
}
