package cloud

import (
	"context"
	"fmt"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Selector names one object: by ID, or by name within a project (and, for kinds that
// live on a network, a network), or within an organization for identity's kinds. The
// cloud does not keep names unique, so a look-up by name must find exactly one object
// to be trusted.
type Selector struct {
	// ID selects the object directly; the name is then ignored, and the scope is
	// where the ID is read (an organization, for identity's kinds), or none.
	ID string

	// Name selects by name among the objects of the scope: OrganizationID, and
	// ProjectID and NetworkID where they are set.
	Name           string
	OrganizationID string
	ProjectID      string
	NetworkID      string
	// NamedBy is what the kind's name is called, "name" when empty: a user is named
	// by its subject.
	NamedBy string
}

// Scope says where the look-up searched: "network N in project P of organization
// O", "project P of organization O", "organization O", "network N"; "" for an ID read
// wherever the token may see it.
func (s Selector) Scope() string {
	scope := ""

	for _, part := range []struct{ kind, id, joint string }{
		{"network", s.NetworkID, ""}, {"project", s.ProjectID, " in "}, {"organization", s.OrganizationID, " of "},
	} {
		switch {
		case part.id == "":
		case scope == "":
			scope = part.kind + " " + part.id
		case part.kind == "organization" && s.ProjectID == "":
			scope += " in " + part.kind + " " + part.id
		default:
			scope += part.joint + part.kind + " " + part.id
		}
	}

	return scope
}

// Named is what a look-up by name calls the name: "name", or the kind's own word.
func (s Selector) Named() string {
	if s.NamedBy == "" {
		return "name"
	}

	return s.NamedBy
}

// LookupError means a look-up did not find exactly one object: none with the ID or
// name, or several with the name (Matches holds their IDs).
type LookupError struct {
	Kind     string
	Selector Selector
	Matches  []string
	// Names are the names of the objects a look-up by name listed, to say which
	// there are when none has the name.
	Names []string
}

func (e *LookupError) Error() string {
	scope := e.Selector.Scope()
	in := ""

	if scope != "" {
		in = " in " + scope
	}

	switch {
	case e.Selector.ID != "":
		return fmt.Sprintf("%s %s does not exist%s or is not visible to these credentials", e.Kind, e.Selector.ID, in)
	case len(e.Matches) == 0 && e.Selector.NamedBy != "":
		return fmt.Sprintf("no %s%s has the %s %q", e.Kind, in, e.Selector.NamedBy, e.Selector.Name)
	case len(e.Matches) == 0:
		return fmt.Sprintf("no %s is named %q%s", e.Kind, e.Selector.Name, in)
	}

	return fmt.Sprintf("the %s %q does not say which %s is meant: %d%s carry it (%s)",
		e.Selector.Named(), e.Selector.Name, e.Kind, len(e.Matches), in, strings.Join(e.Matches, ", "))
}

// Lookup finds one object of the kind, as Lookup does, by a read of its ID that takes
// it for absent only on a definite 404 (see Read): a data source may name an object
// made moments ago, by this run or the last, that a cache does not show yet.
func (o Object[T]) Lookup(ctx context.Context, s *Session, selector Selector, list func(context.Context) ([]T, error)) (*T, error) {
	return Lookup(ctx, o.Kind, selector, func(ctx context.Context, id string) (*T, error) {
		return o.Read(ctx, s, id)
	}, list, o.Metadata)
}

// Lookup is the one way every kind is found. By ID it asks for the object, turning
// "absent" and "hidden" (region answers 403 for objects of projects the caller is
// not in), and a get that returns nothing, into a LookupError; by name it lists the
// project's objects and requires exactly one with the name, because region has no
// name filter and no uniqueness.
func Lookup[T any](
	ctx context.Context,
	kind string,
	selector Selector,
	get func(context.Context, string) (*T, error),
	list func(context.Context) ([]T, error),
	metadata func(*T) *unikorn.ReadMetadata,
) (*T, error) {
	if selector.ID != "" {
		object, err := get(ctx, selector.ID)
		if (object == nil && err == nil) || unikorn.IsNotFound(err) || unikorn.IsForbidden(err) {
			// The name means nothing beside an ID; the scope says where it was read.
			selector.Name = ""

			return nil, &LookupError{Kind: kind, Selector: selector}
		}

		return object, err
	}

	objects, err := list(ctx)
	if err != nil {
		return nil, err
	}

	var (
		matches []*T
		names   []string
	)

	for i := range objects {
		names = append(names, metadata(&objects[i]).Name)

		if metadata(&objects[i]).Name == selector.Name {
			matches = append(matches, &objects[i])
		}
	}

	if len(matches) == 1 {
		return matches[0], nil
	}

	ids := make([]string, len(matches))
	for i, match := range matches {
		ids[i] = metadata(match).ID
	}

	return nil, &LookupError{Kind: kind, Selector: selector, Matches: ids, Names: names}
}
