package compute

import (
	"context"
	"errors"
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// InUseError means region kept refusing to delete an object because something still
// uses it (servers on a network, servers in a security group) until the delete's time
// ran out.
type InUseError struct {
	Kind string
	ID   string
	// Users says what still uses the object, and so what to delete first.
	Users string
	Err   error
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s %s is still in use by %s; delete those first: %v", e.Kind, e.ID, e.Users, e.Err)
}

func (e *InUseError) Unwrap() error { return e.Err }

// regionObject is what the façade needs of one kind of region object (a network, a
// security group, an SSH certificate authority) to read, wait for and delete it.
type regionObject[T any] struct {
	kind string
	// users names what may keep the object from being deleted; empty when nothing can.
	users    string
	get      func(context.Context, string) (*T, error)
	del      func(context.Context, string) error
	metadata func(*T) *unikorn.ProjectScopedMetadata
}

// read returns the object, or nil when region answers a definite 404. A 403 is an
// error: lost access says nothing about whether the object exists.
func (o regionObject[T]) read(ctx context.Context, id string) (*T, error) {
	object, err := o.get(ctx, id)
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return object, err
}

// waitProvisioned waits until region reports the object provisioned. It returns the
// last read even on failure, so that the caller keeps track of what exists.
func (o regionObject[T]) waitProvisioned(ctx context.Context, s *Service, id string) (*T, error) {
	var object *T

	err := s.waitFor(ctx, o.kind+" "+id+" to be provisioned", func(ctx context.Context) (bool, error) {
		read, err := o.get(ctx, id)
		if err != nil {
			return false, &readError{err: err}
		}

		object = read

		switch o.metadata(read).ProvisioningStatus {
		case "provisioned":
			return true, nil
		case "error":
			return false, fmt.Errorf("region reported the provisioning of %s %s as failed", o.kind, id)
		}

		return false, nil
	})

	return object, err
}

// delete deletes the object and waits until region answers 404 for it. Region refuses
// with 403 while the object is in use; its users are often being deleted in the same
// run, so the delete is asked again until ctx ends, and only then reported as in use.
func (o regionObject[T]) delete(ctx context.Context, s *Service, id string) error {
	var inUse error

	check := func(ctx context.Context) (bool, error) {
		err := o.del(ctx, id)

		switch {
		case err == nil, unikorn.IsNotFound(err):
			return true, nil
		case unikorn.IsForbidden(err) && o.users != "":
			// A 403 for an object we can still read is "in use"; for one we cannot
			// read it is lost access, which no wait cures.
			if _, readErr := o.get(ctx, id); readErr != nil {
				return false, err
			}

			inUse = err

			return false, nil
		case err != nil && !isClientError(err):
			return false, &readError{err: err}
		}

		return false, err
	}

	done, err := check(ctx)
	if err == nil && !done {
		err = s.waitFor(ctx, o.kind+" "+id+" to be free to delete", check)
	}

	if err != nil {
		if inUse != nil && errors.As(err, new(*WaitError)) {
			return &InUseError{Kind: o.kind, ID: id, Users: o.users, Err: inUse}
		}

		return err
	}

	return s.waitFor(ctx, o.kind+" "+id+" to be deleted", func(ctx context.Context) (bool, error) {
		_, err := o.get(ctx, id)
		if unikorn.IsNotFound(err) {
			return true, nil
		}

		if err != nil {
			return false, &readError{err: err}
		}

		return false, nil
	})
}
