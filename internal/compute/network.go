package compute

import (
	"context"
	"errors"
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// NetworkInUseError means region kept refusing to delete a network because something
// (a server, usually) still stands on it, until the delete's time ran out.
type NetworkInUseError struct {
	NetworkID string
	Err       error
}

func (e *NetworkInUseError) Error() string {
	return fmt.Sprintf("network %s is still in use (delete the servers on it first): %v", e.NetworkID, e.Err)
}

func (e *NetworkInUseError) Unwrap() error { return e.Err }

// NetworkQuotaError means identity refused to charge the organization's `networks`
// quota for a new network. Nothing was created.
type NetworkQuotaError struct {
	Err error
}

func (e *NetworkQuotaError) Error() string {
	return "the organization's `networks` quota does not allow another network: " + e.Err.Error()
}

func (e *NetworkQuotaError) Unwrap() error { return e.Err }

// ReadNetwork returns the network with id, or nil when region answers a definite 404.
// A 403 is an error: lost access says nothing about whether the network exists.
func (s *Service) ReadNetwork(ctx context.Context, id string) (*unikorn.Network, error) {
	network, err := s.client.GetNetwork(ctx, id)
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return network, err
}

// CreateNetwork creates a network and waits until region has provisioned it. A create
// is never sent twice: the client does not retry a POST whose answer was lost.
func (s *Service) CreateNetwork(ctx context.Context, create unikorn.NetworkCreate) (*unikorn.Network, error) {
	network, err := s.client.CreateNetwork(ctx, create)
	if unikorn.IsForbidden(err) {
		return nil, &NetworkQuotaError{Err: err}
	}

	if err != nil {
		return nil, err
	}

	return s.waitNetworkProvisioned(ctx, network.Metadata.ID)
}

// UpdateNetwork changes what region can change of a network in place and waits until
// it is provisioned again.
func (s *Service) UpdateNetwork(ctx context.Context, id string, update unikorn.NetworkUpdate) (*unikorn.Network, error) {
	if _, err := s.client.UpdateNetwork(ctx, id, update); err != nil {
		return nil, err
	}

	return s.waitNetworkProvisioned(ctx, id)
}

func (s *Service) waitNetworkProvisioned(ctx context.Context, id string) (*unikorn.Network, error) {
	var network *unikorn.Network

	err := s.waitFor(ctx, "network "+id+" to be provisioned", func(ctx context.Context) (bool, error) {
		read, err := s.client.GetNetwork(ctx, id)
		if err != nil {
			return false, &readError{err: err}
		}

		network = read

		switch read.Metadata.ProvisioningStatus {
		case "provisioned":
			return true, nil
		case "error":
			return false, fmt.Errorf("region reported the provisioning of network %s as failed", id)
		}

		return false, nil
	})

	return network, err
}

// DeleteNetwork deletes a network and waits until region answers 404 for it. Region
// refuses with 403 while servers still stand on the network; those are often being
// deleted in the same run, so the delete is asked again until ctx ends, and only then
// reported as in use.
func (s *Service) DeleteNetwork(ctx context.Context, id string) error {
	var inUse error

	err := s.waitForNow(ctx, "network "+id+" to be free to delete", func(ctx context.Context) (bool, error) {
		err := s.client.DeleteNetwork(ctx, id)

		switch {
		case err == nil, unikorn.IsNotFound(err):
			return true, nil
		case unikorn.IsForbidden(err):
			// A 403 for a network we can still read is "in use"; one we cannot read
			// is lost access, which no wait cures.
			if _, readErr := s.client.GetNetwork(ctx, id); readErr != nil && !unikorn.IsNotFound(readErr) {
				return false, err
			}

			inUse = err

			return false, nil
		}

		return false, &readError{err: err}
	})
	if err != nil {
		if inUse != nil && errors.As(err, new(*WaitError)) {
			return &NetworkInUseError{NetworkID: id, Err: inUse}
		}

		return err
	}

	return s.waitFor(ctx, "network "+id+" to be deleted", func(ctx context.Context) (bool, error) {
		_, err := s.client.GetNetwork(ctx, id)
		if unikorn.IsNotFound(err) {
			return true, nil
		}

		if err != nil {
			return false, &readError{err: err}
		}

		return false, nil
	})
}

// waitForNow is waitFor with a first check at once, for steps that start a change
// rather than follow one.
func (s *Service) waitForNow(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	done, err := check(ctx)

	var failed *readError
	if errors.As(err, &failed) || (err == nil && !done) {
		return s.waitFor(ctx, what, check)
	}

	return err
}
