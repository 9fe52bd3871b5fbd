package cloud

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Holder is something that keeps an object from being deleted: a server in a security
// group, file storage attached to a network.
type Holder struct {
	// Kind names the holder's kind in messages: "instance", "server", "file storage".
	Kind string
	Name string
	ID   string
	// Leaving means the holder is being deleted (its deletion time is set, or it is
	// deprovisioning), so the delete that waits for it will be taken once it is gone.
	Leaving bool
}

func (h Holder) String() string {
	return fmt.Sprintf("%s %q (%s)", h.Kind, h.Name, h.ID)
}

// HolderOf describes a holder from its metadata.
func HolderOf(kind string, metadata *unikorn.ReadMetadata) Holder {
	return Holder{
		Kind: kind, Name: metadata.Name, ID: metadata.ID,
		Leaving: metadata.DeletionTime != nil || metadata.ProvisioningStatus == unikorn.ProvisioningDeprovisioning,
	}
}

// HolderSearch is one list in which what holds an object is looked for: region's
// servers on a network, the file storage of its project. A family gives one per kind
// of thing that may hold an object of its kind (see Object.HeldBy); Search makes one.
type HolderSearch struct {
	// Among names what the list holds, as a message says it could not look there:
	// "region's servers", "compute's instances", "file storage".
	Among string
	Find  func(context.Context) ([]Holder, error)
}

// Search is the HolderSearch among the objects list returns: holds says whether one
// holds the object, and as what holder.
func Search[T any](among string, list func(context.Context) ([]T, error), holds func(*T) (Holder, bool)) HolderSearch {
	return HolderSearch{Among: among, Find: func(ctx context.Context) ([]Holder, error) {
		objects, err := list(ctx)
		if err != nil {
			return nil, err
		}

		var holders []Holder

		for i := range objects {
			if holder, ok := holds(&objects[i]); ok {
				holders = append(holders, holder)
			}
		}

		return holders, nil
	}}
}

// Holders is what a search for what holds an object found: the holders the token can
// see, and the lists it could not look in, so that the answer says when it is partial.
type Holders struct {
	Found []Holder
	// Unread are the lists that could not be read: the token may not list them (a
	// project user may not list region's servers), or the list failed.
	Unread []Unread
}

// Unread is a list a search for holders could not read, and why.
type Unread struct {
	Among string
	Err   error
}

func (u Unread) String() string {
	switch Classify(u.Err).Class {
	case ClassRBAC, ClassUnauthorized:
		return "the token may not list " + u.Among
	case ClassUnconfigured:
		return "the provider has no endpoint to list " + u.Among
	default:
		return fmt.Sprintf("the list of %s failed (%v)", u.Among, u.Err)
	}
}

// FindHolders looks in every list for what holds an object. A list that cannot be
// read is skipped and named, and the others are still searched: a project user may
// not list region's servers, yet sees the file storage and the instances that hold a
// network. A holder two lists show (a compute instance, and the server region shows
// for it) is named once.
func FindHolders(ctx context.Context, searches []HolderSearch) Holders {
	var holders Holders

	for _, search := range searches {
		found, err := search.Find(ctx)
		if err != nil {
			holders.Unread = append(holders.Unread, Unread{Among: search.Among, Err: err})

			continue
		}

		for _, holder := range found {
			if !slices.ContainsFunc(holders.Found, func(h Holder) bool { return h.Kind == holder.Kind && h.ID == holder.ID }) {
				holders.Found = append(holders.Found, holder)
			}
		}
	}

	return holders
}

// Names names the holders found, "" when there are none.
func (h Holders) Names() string {
	names := make([]string, len(h.Found))
	for i, holder := range h.Found {
		names[i] = holder.String()
	}

	return strings.Join(names, ", ")
}

// Partial says which lists the search could not look in, "" when it read them all.
func (h Holders) Partial() string {
	reasons := make([]string, len(h.Unread))
	for i, unread := range h.Unread {
		reasons[i] = unread.String()
	}

	return strings.Join(reasons, "; ")
}

// Leaving reports whether a holder found is being deleted.
func (h Holders) Leaving() bool {
	return slices.ContainsFunc(h.Found, func(holder Holder) bool { return holder.Leaving })
}

// HeldError means the cloud refuses to delete an object because something still
// holds it, and nothing that holds it is going away: waiting longer would change
// nothing. It is what a configuration that removes an object together with the
// references to it meets, when Terraform deletes the object before it updates what
// refers to it.
type HeldError struct {
	Kind string
	ID   string
	Name string
	// Holders are what the token can see holding the object (none when they are in
	// lists it may not read, or in projects it cannot see), and the lists it could not
	// look in.
	Holders Holders
	// Users says what may hold an object of the kind.
	Users string
	Err   error
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s %s is still in use by %s, and none of them is being deleted: %v", e.Kind, e.object(), e.HolderNames(), e.Err)
}

func (e *HeldError) Unwrap() error { return e.Err }

func (e *HeldError) object() string {
	if e.Name == "" {
		return e.ID
	}

	return fmt.Sprintf("%q (%s)", e.Name, e.ID)
}

// HolderNames names the holders the token can see, or says what may hold the object
// when it sees none; either way it says which lists it could not look in.
func (e *HeldError) HolderNames() string {
	names, partial := e.Holders.Names(), e.Holders.Partial()

	switch {
	case names != "" && partial == "":
		return names
	case names != "":
		return names + " (and perhaps more: " + partial + ")"
	case partial == "":
		return e.Users + " (none that the token can see)"
	default:
		return e.Users + " (none that the token can see, but " + partial + ")"
	}
}
