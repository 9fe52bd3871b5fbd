package loadbalancing

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// LoadBalancers manages region's load balancers. Any project user may call their API.
type LoadBalancers interface {
	// Read returns the load balancer, or nil when region definitely has none.
	Read(ctx context.Context, id string) (*LoadBalancer, error)
	// Create creates a load balancer and waits until it is provisioned with its
	// virtual IP, and its public IP when it asks for one. A create whose answer was
	// lost is found and adopted, never sent again.
	Create(ctx context.Context, create Create) (*LoadBalancer, error)
	// Update replaces the load balancer's document and waits until a read shows it,
	// provisioned, with its public IP as asked.
	Update(ctx context.Context, id string, spec Spec) (*LoadBalancer, error)
	// Delete deletes the load balancer and waits until region definitely has none;
	// created, when not zero, is its creation time (see cloud.Object.Delete).
	Delete(ctx context.Context, id string, created time.Time) error
	// List returns the load balancers q selects that the token may see.
	List(ctx context.Context, q Query) ([]LoadBalancer, error)
	// NetworkPrefix returns the prefix of the network a load balancer would be on,
	// to check a virtual IP before it is asked for.
	NetworkPrefix(ctx context.Context, networkID string) (string, error)
}

// ValidationError collects every Problem of a document, so that its author sees them
// all at once; nothing was sent.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		parts = append(parts, p.Detail)
	}

	return "invalid load balancer: " + strings.Join(parts, "; ")
}

// QuotaError means identity refused to charge the organization's quota for the load
// balancer: Kinds names the quotas involved, `loadbalancers` and, for a load balancer
// with a public IP, `publicips`. Nothing was created, or, for an update, nothing
// changed.
type QuotaError struct {
	Kinds []string
	// Updating says an existing load balancer keeps what it had.
	Updating bool
	Err      error
}

func (e *QuotaError) Error() string {
	quotas := make([]string, 0, len(e.Kinds))
	for _, kind := range e.Kinds {
		quotas = append(quotas, "`"+kind+"`")
	}

	return fmt.Sprintf("the organization's %s quota does not allow this load balancer: %v", strings.Join(quotas, " or "), e.Err)
}

func (e *QuotaError) Unwrap() error { return e.Err }

// ProvisioningFailedError means region reported the load balancer's provisioning as
// failed: the cloud could not make it, or not as its document asks.
type ProvisioningFailedError struct {
	ID string
}

func (e *ProvisioningFailedError) Error() string {
	return fmt.Sprintf("region failed to provision load balancer %s: its provisioning status is error", e.ID)
}

// DeletingError means the load balancer is being deleted, which no update can stop.
type DeletingError struct {
	ID string
}

func (e *DeletingError) Error() string {
	return fmt.Sprintf("load balancer %s is being deleted and cannot be updated", e.ID)
}

// GoneError means the load balancer that an update was for no longer exists.
type GoneError struct {
	ID string
}

func (e *GoneError) Error() string {
	return fmt.Sprintf("load balancer %s no longer exists", e.ID)
}
