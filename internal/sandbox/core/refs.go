package core

import (
	"reflect"
	"slices"
	"strings"
	"time"
)

// Families hold each other as Unikorn's resources do. A record that uses another
// object puts a reference on it (Kind.References), as Unikorn's services put a
// finalizer on what they use (a project's references, a network's, a volume's claim):
// the holder's family refuses or defers a delete while Holders names anyone. A record
// that lives and dies with another names it as its owner (Kind.Owner), as a
// Kubernetes owner reference does: Collect deletes what an object owns when it goes.

// Ref names an object by its shared API type and ID.
type Ref struct {
	Type reflect.Type
	ID   string
}

// RefTo names the object of type T with the given ID.
func RefTo[T any](id string) Ref {
	return Ref{Type: reflect.TypeFor[T](), ID: id}
}

// IsZero reports whether the Ref names nothing.
func (r Ref) IsZero() bool {
	return r.Type == nil
}

// Holder is an object that holds another, as its reference names it.
type Holder struct {
	Noun string
	ID   string
}

func (h Holder) String() string {
	return h.Noun + " " + h.ID
}

// Reference is a holder and what it holds, for a family whose records are not kinds of
// the store (a service with records of its own).
type Reference struct {
	Holder Holder
	Held   Ref
}

// AddReferences adds a source of references beyond the kinds' own.
func (s *Server) AddReferences(source func(st *Store) []Reference) {
	s.reg.references = append(s.reg.references, source)
}

// Holders names every object that holds ref, sorted.
func Holders(st *Store, ref Ref) []Holder {
	var holders []Holder

	for _, kind := range st.reg.kinds {
		if kind.references == nil {
			continue
		}

		for iterator := st.records[kind.name].MapRange(); iterator.Next(); {
			if slices.Contains(kind.references(iterator.Value().Interface()), ref) {
				holders = append(holders, Holder{Noun: kind.noun, ID: iterator.Key().String()})
			}
		}
	}

	for _, source := range st.reg.references {
		for _, reference := range source(st) {
			if reference.Held == ref {
				holders = append(holders, reference.Holder)
			}
		}
	}

	slices.SortFunc(holders, func(a, b Holder) int { return strings.Compare(a.String(), b.String()) })

	return holders
}

// Held reports whether anything holds ref.
func Held(st *Store, ref Ref) bool {
	return len(Holders(st, ref)) > 0
}

// Collect starts deleting every record owner owns, as Kubernetes' garbage collector
// does once an owner is deleted.
func Collect(st *Store, owner Ref, now time.Time, delay time.Duration) {
	for _, kind := range st.reg.kinds {
		if kind.owner == nil || kind.life == nil {
			continue
		}

		for iterator := st.records[kind.name].MapRange(); iterator.Next(); {
			if record := iterator.Value().Interface(); kind.owner(record) == owner {
				metadata, lifecycle := kind.life(record)
				MarkDeleting(metadata, lifecycle, now, delay)
			}
		}
	}
}
