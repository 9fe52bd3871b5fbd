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
	users string
	// conflictInUse means region answers a delete of the object in use with 409 (as for
	// images) rather than 403.
	conflictInUse bool
	get           func(context.Context, string) (*T, error)
	del           func(context.Context, string) error
	metadata      func(*T) *unikorn.ProjectScopedMetadata
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
		case unikorn.IsConflict(err) && o.conflictInUse:
			inUse = err

			return false, nil
		case unikorn.IsForbidden(err) && o.users != "" && !o.conflictInUse:
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

// create sends post once and returns what it created, provisioned. An answer that is
// lost (a 5xx, a broken connection) says nothing about whether region made the
// object, and posting again could make a second: instead the objects of the name that
// were not there before are looked for, and exactly one is adopted.
func (o regionObject[T]) create(ctx context.Context, s *Service, name string,
	list func(context.Context) ([]T, error), post func(context.Context) (*T, error),
) (*T, error) {
	existing, err := o.named(ctx, name, list)
	if err != nil {
		return nil, err
	}

	object, err := post(ctx)
	if err != nil && !isClientError(err) && ctx.Err() == nil {
		object, err = o.adopt(ctx, name, existing, list, err)
	}

	if err != nil {
		return nil, err
	}

	return o.waitProvisioned(ctx, s, o.metadata(object).ID)
}

// named returns the IDs of the objects list finds with name.
func (o regionObject[T]) named(ctx context.Context, name string, list func(context.Context) ([]T, error)) (map[string]bool, error) {
	objects, err := list(ctx)
	if err != nil {
		return nil, err
	}

	ids := map[string]bool{}

	for i := range objects {
		if metadata := o.metadata(&objects[i]); metadata.Name == name {
			ids[metadata.ID] = true
		}
	}

	return ids, nil
}

// adopt finds the object a create whose answer was lost made: the one object of the
// name that was not there before.
func (o regionObject[T]) adopt(ctx context.Context, name string, before map[string]bool,
	list func(context.Context) ([]T, error), lost error,
) (*T, error) {
	after, err := o.named(ctx, name, list)
	if err != nil {
		return nil, fmt.Errorf("the answer to creating %s %q was lost (%w), and looking for it failed: %w", o.kind, name, lost, err)
	}

	var made []string

	for id := range after {
		if !before[id] {
			made = append(made, id)
		}
	}

	switch len(made) {
	case 0:
		return nil, fmt.Errorf("the answer to creating %s %q was lost and none has appeared, so it may not exist: %w", o.kind, name, lost)
	case 1:
		return o.get(ctx, made[0])
	}

	return nil, fmt.Errorf("the answer to creating %s %q was lost and %d new ones carry the name (%v); delete the extra ones: %w",
		o.kind, name, len(made), made, lost)
}
