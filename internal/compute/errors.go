package compute

import (
	"fmt"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// ErrNotFound means no server carries the instance's tag: the instance does not exist.
var ErrNotFound = fmt.Errorf("instance %w", cloud.ErrNotFound)

// ConsistencyError means more than one server claims to realize one instance. The
// façade refuses to guess which one is the instance; a person has to remove the extra.
type ConsistencyError struct {
	InstanceID string
	ServerIDs  []string
}

func (e *ConsistencyError) Error() string {
	return fmt.Sprintf("instance %s is realized by %d servers (%s), but must be by exactly one: "+
		"delete the servers that should not carry the tag %s=%s",
		e.InstanceID, len(e.ServerIDs), strings.Join(e.ServerIDs, ", "), InstanceIDTag, e.InstanceID)
}

// NameTakenError means a server with the instance's name already exists on its
// network. Because instance IDs derive from network and name, that server is the
// instance a caller would get by importing InstanceID.
type NameTakenError struct {
	Name           string
	NetworkID      string
	InstanceID     string
	OrganizationID string
	ProjectID      string
	Err            error
}

func (e *NameTakenError) Error() string {
	return fmt.Sprintf("an instance named %q already exists on network %s (ID %s)", e.Name, e.NetworkID, e.InstanceID)
}

func (e *NameTakenError) Unwrap() error { return e.Err }

// QuotaError means identity refused the allocation: the organization is over quota.
// Nothing was created, or, for an update (Charged), nothing changed.
type QuotaError struct {
	Err error
	// Charged means the instance exists and keeps the quota it had.
	Charged bool
}

func (e *QuotaError) Error() string {
	return "the organization's quota does not allow this instance: " + e.Err.Error()
}

func (e *QuotaError) Unwrap() error { return e.Err }

// ProvisioningFailedError means the cloud reported the server's provisioning as failed.
type ProvisioningFailedError struct {
	InstanceID string
	ServerID   string
}

func (e *ProvisioningFailedError) Error() string {
	if e.ServerID == "" {
		return fmt.Sprintf("the cloud failed to provision instance %s: its provisioning status is error", e.InstanceID)
	}

	return fmt.Sprintf("the cloud failed to provision instance %s (server %s): its provisioning status is error",
		e.InstanceID, e.ServerID)
}

// CompensationError reports a failed step together with an undo that failed as well,
// so that the caller learns what may be left behind.
type CompensationError struct {
	Err  error
	Undo string
	// UndoErr is why the undo failed.
	UndoErr error
}

func (e *CompensationError) Error() string {
	return fmt.Sprintf("%v; undoing it also failed (%s: %v)", e.Err, e.Undo, e.UndoErr)
}

func (e *CompensationError) Unwrap() error { return e.Err }

// AccessError means the token cannot read what the instance lives in or is: region
// answered 403 for its network or its server. A list silently leaves out what a token
// may not see, so an instance missing from it has lost access, not gone.
type AccessError struct {
	InstanceID string
	What       string
	Err        error
}

func (e *AccessError) Error() string {
	return fmt.Sprintf("instance %s cannot be read with these credentials (%s: %v); "+
		"it is not known to be gone", e.InstanceID, e.What, e.Err)
}

func (e *AccessError) Unwrap() error { return e.Err }

// ChargeUnknownError means the answer to the allocation request was lost: identity
// may have charged the quota, and, having no list, cannot say. Nothing else was done.
type ChargeUnknownError struct {
	InstanceID string
	Err        error
}

func (e *ChargeUnknownError) Error() string {
	return fmt.Sprintf("charging instance %s to the quota got no answer (%v): quota may have been charged "+
		"for instance %s, and no server was created", e.InstanceID, e.Err, e.InstanceID)
}

func (e *ChargeUnknownError) Unwrap() error { return e.Err }

// RefusedError means the instance's state does not allow what was asked, such as
// rebooting a stopped instance. Reason says why and what to do instead.
type RefusedError struct {
	Reason string
}

func (e *RefusedError) Error() string { return e.Reason }

// SnapshotFailedError means the cloud could not make the snapshot image.
type SnapshotFailedError struct {
	InstanceID string
	ImageID    string
}

func (e *SnapshotFailedError) Error() string {
	return fmt.Sprintf("the cloud failed to snapshot instance %s: image %s is failed", e.InstanceID, e.ImageID)
}

func refused(format string, args ...any) error {
	return &RefusedError{Reason: fmt.Sprintf(format, args...)}
}
