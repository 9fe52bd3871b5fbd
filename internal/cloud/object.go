package cloud

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// InUseError means the cloud kept refusing to delete an object because something
// still uses it (servers on a network, servers in a security group) until the
// delete's time ran out.
type InUseError struct {
	Kind string
	ID   string
	// Users says what still uses the object, and so what to delete first.
	Users string
	Err   error
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s %s is still in use by %s: %v", e.Kind, e.ID, e.Users, e.Err)
}

func (e *InUseError) Unwrap() error { return e.Err }

// InUse is the status a cloud refuses a delete with while the object is in use.
type InUse int

const (
	// InUseForbidden is 403, as region answers for networks, security groups and SSH
	// certificate authorities; a 403 for an object the token cannot read is lost
	// access instead.
	InUseForbidden InUse = iota
	// InUseConflict is 409, as for images, whose 403 is RBAC's.
	InUseConflict
	// InUseEither is 403 or 409: for volumes, region's handler answers 403 where its
	// document promises 409.
	InUseEither
)

// Object is what the façade needs of one kind of asynchronous object (a network, a
// load balancer, a project) to read, create, wait for and delete it. Each family
// describes its kinds with one; the rules of their lives are written here once.
type Object[T any] struct {
	// Kind names the kind in messages: "network", "load balancer".
	Kind string
	// Users names what may keep the object from being deleted; empty when nothing can.
	Users string
	// InUse is how the cloud answers a delete of the object while something uses it.
	InUse InUse
	// HeldBy are the lists in which to look for what holds the object (read just
	// before) while the cloud refuses its delete as in use, one per kind of thing that
	// may hold it; nil when the family cannot tell. See Delete and FindHolders.
	HeldBy func(*T) []HolderSearch
	// Free reports whether the object, as read, shows nothing using it; nil when the
	// object cannot tell. Where the cloud refuses a delete in use with 403, a 403 that
	// lasts past the grace for an object that shows itself free, with no holder found,
	// is the token's rights, not use.
	Free     func(*T) bool
	Get      func(context.Context, string) (*T, error)
	Del      func(context.Context, string) error
	Metadata func(*T) *unikorn.ReadMetadata
}

// Read returns the object, or nil when the cloud definitely has none: a 404 is
// believed only once it outlasts the read lag, as what a refresh or a data source
// reads may have been made moments ago, by this run or the last, and a cache may not
// show it yet; dropping it from state then would make it a second time. A 403 is an
// error: lost access says nothing about whether the object exists.
func (o Object[T]) Read(ctx context.Context, s *Session, id string) (*T, error) {
	var object *T

	err := s.PastReadLag(ctx, func(ctx context.Context) error {
		read, err := o.Get(ctx, id)
		object = read

		return err
	})
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return object, err
}

// Remembering is the kind for a kind that others refer to: every read of it keeps
// what it shows for the shared reads after it (see Shared), and a 404 drops what was
// kept. A refresh reads the objects before the checks of the instances that use
// them, and a create or an update ends with the read that saw it provisioned.
func (o Object[T]) Remembering(s *Session) Object[T] {
	get := o.Get

	o.Get = func(ctx context.Context, id string) (*T, error) {
		began := s.shared.now()
		object, err := get(ctx, id)

		switch {
		case unikorn.IsNotFound(err):
			o.Forget(s, id)
		case err == nil:
			s.remember(o.sharedKey(id), object, began)
		}

		return object, err
	}

	return o
}

// sharedKey names the object with id among the session's shared reads.
func (o Object[T]) sharedKey(id string) string {
	return o.Kind + "/" + id
}

// Shared returns the object as a read that began at notBefore or later showed it,
// sharing that read with every caller of the process: the checks of every instance of
// a run read the same security groups. What it returns is shared, so nobody may
// modify it. Errors (a 404, a 403) are never kept: the next caller asks again.
func (o Object[T]) Shared(ctx context.Context, s *Session, id string, notBefore time.Time) (*T, error) {
	object, _, err := Shared(ctx, s, o.sharedKey(id), notBefore, func(ctx context.Context) (*T, error) {
		return o.Get(ctx, id)
	})

	return object, err
}

// Forget drops what the session keeps of the object with id: this process is changing
// it, or the cloud refused what it was read for.
func (o Object[T]) Forget(s *Session, id string) {
	s.Forget(o.sharedKey(id))
}

// WaitProvisioned waits until the cloud reports the object provisioned. It returns
// the last read even on failure, so that the caller keeps track of what exists.
func (o Object[T]) WaitProvisioned(ctx context.Context, s *Session, id string) (*T, error) {
	return o.WaitUntil(ctx, s, id, "provisioned", func(*T) (bool, error) { return true, nil })
}

// WaitUntil waits until the cloud reports the object provisioned and ready says it
// is what the caller waits for (a read that shows a write, an address that has
// appeared). ready's error ends the wait. It returns the last read even on failure.
func (o Object[T]) WaitUntil(ctx context.Context, s *Session, id, what string, ready func(*T) (bool, error)) (*T, error) {
	var object *T

	// A read right after the create or update may come from a cache that has not seen
	// the object yet: a 404 means gone only once the read lag has passed.
	settled := s.UnseenSettled()

	err := s.WaitFor(ctx, o.Kind+" "+id+" to be "+what, func(ctx context.Context) (bool, error) {
		began := time.Now()

		read, err := o.Get(ctx, id)
		if unikorn.IsNotFound(err) && object == nil && Unsettled(began, settled) {
			return false, nil
		}

		if err != nil {
			return false, ReadFailed(err)
		}

		object = read

		switch o.Metadata(read).ProvisioningStatus {
		case unikorn.ProvisioningProvisioned:
			return ready(read)
		case unikorn.ProvisioningError:
			return false, fmt.Errorf("the cloud reported the provisioning of %s %s as failed", o.Kind, id)
		}

		return false, nil
	})

	return object, err
}

// objectGone is the change an object's delete waits for, by the object's kind.
const objectGone = "gone"

// HeldGrace is the least a delete refused as in use is asked again before the refusal
// is judged, however short the read lag: what releases the object (a holder's delete
// sent by another process) may be on its way.
const HeldGrace = 2 * time.Second

// Delete deletes the object and waits until the cloud answers a definite 404 for it:
// at once for an object created longer ago than the read lag. Its creation time is
// created when the caller knows it (a resource keeps it with its state), or else
// what a read shows (this process's shared reads, or one read before the delete).
//
// The cloud refuses with 403 (or 409) while the object is in use. Its delete is asked
// again only while that can end by itself: while what holds it is being deleted (an
// instance destroyed in the same run frees its security group), and, since the
// refusal and the lists that name the holders come from caches, until the read lag
// (and at least HeldGrace) has passed since the refusal began or a holder was last
// seen leaving. A refusal that outlasts that, with nothing that holds
// the object going away, ends the delete with a *HeldError that names the holders:
// typically a configuration removed the object and the reference to it at once, and
// Terraform deletes the object before it updates what refers to it, so no wait could
// end. A refusal still standing when ctx ends is an *InUseError.
func (o Object[T]) Delete(ctx context.Context, s *Session, id string, created time.Time) error {
	var (
		inUse  error
		object *T
		// held is when a refusal with no holder leaving is judged to stand.
		held time.Time
	)

	if kept, ok := s.shared.kept(o.sharedKey(id)); ok && created.IsZero() {
		// This process's shared reads may have shown it (a refresh reads what it then
		// deletes).
		if kept, ok := kept.(*T); ok {
			created = o.Metadata(kept).CreationTime
		}
	}

	read := func(ctx context.Context) error {
		read, err := o.Get(ctx, id)
		if err == nil {
			object = read
			created = o.Metadata(read).CreationTime
		}

		return err
	}

	// refused judges a refusal as in use: nil (another try) while a holder is going
	// away or the caches may not show the holder's release yet, a *HeldError otherwise.
	refused := func(ctx context.Context, err error) error {
		inUse = err
		now := time.Now()
		settle := func() { held = now.Add(max(s.readLag, s.poll.Max, HeldGrace)) }

		if held.IsZero() {
			settle()
		}

		var holders Holders

		if o.HeldBy != nil && object != nil {
			// A list that cannot be read is named, and the refusal judged by the others.
			holders = FindHolders(ctx, o.HeldBy(object))
		}

		if holders.Leaving() {
			settle()

			return nil
		}

		if now.Before(held) {
			return nil
		}

		if unikorn.IsForbidden(err) && o.Free != nil && object != nil && o.Free(object) && len(holders.Found) == 0 {
			return err
		}

		name := ""
		if object != nil {
			name = o.Metadata(object).Name
		}

		return &HeldError{Kind: o.Kind, ID: id, Name: name, Holders: holders, Users: o.Users, Err: err}
	}

	check := func(ctx context.Context) (bool, error) {
		err := o.Del(ctx, id)

		switch {
		case err == nil, unikorn.IsNotFound(err):
			return true, nil
		case unikorn.IsConflict(err) && o.InUse != InUseForbidden:
			if object == nil {
				_ = read(ctx)
			}

			return false, refused(ctx, err)
		case unikorn.IsForbidden(err) && o.Users != "" && o.InUse != InUseConflict:
			// A 403 for an object we can still read is "in use"; for one we cannot
			// read it is lost access, which no wait cures.
			if readErr := read(ctx); readErr != nil {
				return false, err
			}

			return false, refused(ctx, err)
		}

		// A failure that is no answer is asked again; a refusal ends the wait.
		return false, ReadFailed(err)
	}

	// Without its creation time, a 404 after the delete is believed only once the read
	// lag has passed, a read every poll interval until then: one read first costs less
	// (an object in use is read by check anyway).
	if created.IsZero() {
		_ = read(ctx)
	}

	o.Forget(s, id)
	defer o.Forget(s, id)

	sent := s.UnseenSettled()

	// A DELETE whose answer was lost may have been done or not; asking again is safe.
	if err := s.WaitForNow(ctx, o.Kind+" "+id+" to be free to delete", check); err != nil {
		if inUse != nil && errors.As(err, new(*WaitError)) {
			return &InUseError{Kind: o.Kind, ID: id, Users: o.Users, Err: inUse}
		}

		return err
	}

	// settled is when a 404 becomes definite, fixed at the first: once the caches
	// cannot be hiding the object any more.
	var settled time.Time

	// Objects of one kind take about as long to go as each other: the session learns
	// how long, so that the next of a destroy reads when it is likely gone.
	deleted := Change{Kind: objectGone, Variant: o.Kind}

	return s.WaitForChange(ctx, o.Kind+" "+id+" to be deleted", deleted, func(ctx context.Context, _ bool) (bool, error) {
		began := time.Now()

		err := read(ctx)

		switch {
		case unikorn.IsNotFound(err):
			if settled.IsZero() {
				settled = sent
				if !created.IsZero() {
					settled = s.SeenSettled(Creation{Time: created})
				}
			}

			return !Unsettled(began, settled), nil
		case err != nil:
			return false, ReadFailed(err)
		}

		return false, nil
	})
}

// Create sends post once and returns what it created, provisioned. An answer that is
// lost (a 5xx, a broken connection) says nothing about whether the cloud made the
// object, and posting again could make a second: instead the objects of the name that
// were not there before are looked for, and exactly one is adopted.
func (o Object[T]) Create(ctx context.Context, s *Session, name string,
	list func(context.Context) ([]T, error), post func(context.Context) (*T, error),
) (*T, error) {
	object, err := o.Post(ctx, s, name, list, post)
	if err != nil {
		return nil, err
	}

	return o.WaitProvisionedAfter(ctx, s, object)
}

// WaitProvisionedAfter is WaitProvisioned after a create that answered with object:
// when the wait ends before any read shows it (interrupted, or the caches did not show
// it in time), it returns that answer, so that the caller keeps track of what it made
// (Terraform saves it, tainted) instead of losing it.
func (o Object[T]) WaitProvisionedAfter(ctx context.Context, s *Session, object *T) (*T, error) {
	read, err := o.WaitProvisioned(ctx, s, o.Metadata(object).ID)
	if read == nil {
		read = object
	}

	return read, err
}

// Post is Create without the wait: it returns the object as the answer (or the
// adopted object's first read) shows it, for families whose wait asks for more than
// provisioned.
func (o Object[T]) Post(ctx context.Context, s *Session, name string,
	list func(context.Context) ([]T, error), post func(context.Context) (*T, error),
) (*T, error) {
	existing, err := o.named(ctx, name, list)
	if err != nil {
		return nil, err
	}

	object, err := post(ctx)
	if err != nil && !IsClientError(err) && ctx.Err() == nil {
		object, err = o.adopt(ctx, s, name, existing, list, err)
	}

	return object, err
}

// named returns the IDs of the objects list finds with name.
func (o Object[T]) named(ctx context.Context, name string, list func(context.Context) ([]T, error)) (map[string]bool, error) {
	objects, err := list(ctx)
	if err != nil {
		return nil, err
	}

	ids := map[string]bool{}

	for i := range objects {
		if metadata := o.Metadata(&objects[i]); metadata.Name == name {
			ids[metadata.ID] = true
		}
	}

	return ids, nil
}

// adopt finds the object a create whose answer was lost made: the one object of the
// name that was not there before. Lists come from caches that may not show it yet, so
// it is looked for until the read lag has passed before being called absent.
func (o Object[T]) adopt(ctx context.Context, s *Session, name string, before map[string]bool,
	list func(context.Context) ([]T, error), lost error,
) (*T, error) {
	settled := s.UnseenSettled()

	for {
		began := time.Now()

		after, err := o.named(ctx, name, list)
		if err != nil {
			return nil, fmt.Errorf("the answer to creating %s %q was lost (%w), and looking for it failed: %w", o.Kind, name, lost, err)
		}

		var made []string

		for id := range after {
			if !before[id] {
				made = append(made, id)
			}
		}

		switch {
		case len(made) == 1:
			return o.Get(ctx, made[0])
		case len(made) > 1:
			return nil, fmt.Errorf("the answer to creating %s %q was lost and %d new ones carry the name (%v); delete the extra ones: %w",
				o.Kind, name, len(made), made, lost)
		case !Unsettled(began, settled):
			return nil, fmt.Errorf("the answer to creating %s %q was lost and none has appeared, so it may not exist: %w", o.Kind, name, lost)
		}

		if err := Sleep(ctx, min(s.poll.Max, time.Until(settled))); err != nil {
			return nil, fmt.Errorf("the answer to creating %s %q was lost (%w), and looking for it ended: %w", o.Kind, name, lost, err)
		}
	}
}
