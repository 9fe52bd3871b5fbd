package kubernetes

import (
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// The quota kinds a cluster is charged to, as identity names them: one of `clusters`
// for the cluster, and `servers` and `gpus` for its workload pools at their most (the
// control plane is free).
const (
	QuotaClusters = "clusters"
	QuotaServers  = "servers"
	QuotaGPUs     = "gpus"
)

// QuotaError means identity refused to charge a cluster to the organization's quota:
// nothing was created, or, for an update (ID set), nothing changed, since the service
// charges the quota before anything else.
type QuotaError struct {
	// ID is the cluster an update was refused for; empty for a create.
	ID string
	// Kind is the quota that ran out (QuotaClusters, ...), empty when identity's words
	// do not say.
	Kind string
	Err  error
}

func (e *QuotaError) Error() string {
	what := "a new Kubernetes cluster"
	if e.ID != "" {
		what = "Kubernetes cluster " + e.ID
	}

	quota := "quota"
	if e.Kind != "" {
		quota = "`" + e.Kind + "` quota"
	}

	return fmt.Sprintf("the organization's %s does not hold %s: %v", quota, what, e.Err)
}

func (e *QuotaError) Unwrap() error { return e.Err }

// refused is err, a quota refusal as a *QuotaError for the cluster id (empty for a
// create).
func refused(err error, id string) error {
	if failure := cloud.Classify(err); failure.Class == cloud.ClassQuota {
		return &QuotaError{ID: id, Kind: failure.Quota, Err: err}
	}

	return err
}

// ProvisioningError means a wait for a cluster ran out while the service reported it
// in error. The service retries such a cluster by itself, so it may yet recover.
type ProvisioningError struct {
	ID  string
	Err error
}

func (e *ProvisioningError) Error() string {
	return fmt.Sprintf("the service reports Kubernetes cluster %s in error, and retries it: %v", e.ID, e.Err)
}

func (e *ProvisioningError) Unwrap() error { return e.Err }

// GoneError means a cluster that was just written is missing from the service's
// list past the read lag: it was deleted behind Terraform's back.
type GoneError struct {
	ID string
}

func (e *GoneError) Error() string {
	return fmt.Sprintf("Kubernetes cluster %s is gone: the service lists it no more", e.ID)
}

func (e *GoneError) Unwrap() error { return cloud.ErrNotFound }
