package core

import (
	"fmt"
	"iter"
	"reflect"
	"sort"
	"time"
)

// Families read each other's records as Unikorn's handlers read other kinds of
// resource: through the shared API types (the wire types of internal/unikorn, as
// pkg/apis is to Unikorn), never through the other family's own record type. A family
// exposes each kind it keeps, or each catalogue it serves, as one or more such types
// (Expose, ExposeCatalogue); any family then reads them by type (Get, Find, Visible,
// All), whichever family keeps them.

// View shows a family's record as a shared API type.
type View[R, T any] struct {
	// Show is the record as the type; a nil result hides the record (an image the
	// cloud has let go).
	Show func(*R) *T
	// ShowIn is Show for a record shown with what other records of the store say of
	// it (an organization's user with its global user's subject); set one of the two.
	ShowIn func(st *Store, r *R) *T
	// Place says where the record lives, as the labels Unikorn puts on every resource
	// do; nil for nowhere in particular.
	Place func(*R) Placement
	// Visible says whether a caller may see the record at all; nil for everyone.
	Visible func(*R, *Caller) bool
}

// Placement is where an object lives: what Unikorn's labels of organization, project,
// region and network say of a resource. Empty fields mean everywhere.
type Placement struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
}

// source is one kind or catalogue exposed as one type.
type source struct {
	// kind is the kind shown, nil for a catalogue.
	kind    *kindInfo
	get     func(st *Store, id string) (any, bool)
	ids     func(st *Store) []string
	show    func(st *Store, r any) any
	place   func(any) Placement
	visible func(any, *Caller) bool
}

// Expose shows a kind's records as T to every family.
func Expose[R, T any](s *Server, kind *Kind[R], view View[R, T]) {
	s.reg.addSource(reflect.TypeFor[T](), viewSource(view, &source{
		kind: s.reg.kind(kind.Name),
		get: func(st *Store, id string) (any, bool) {
			record, ok := kind.Get(st, id)

			return record, ok
		},
		ids: func(st *Store) []string { return SortedKeys(kind.Records(st)) },
	}))
}

// ExposeCatalogue shows a fixed catalogue, which no state file keeps, as T to every
// family, in the catalogue's order.
func ExposeCatalogue[R, T any](s *Server, items func() []R, id func(*R) string, view View[R, T]) {
	s.reg.addSource(reflect.TypeFor[T](), viewSource(view, &source{
		get: func(_ *Store, wanted string) (any, bool) {
			all := items()
			for i := range all {
				if id(&all[i]) == wanted {
					return &all[i], true
				}
			}

			return nil, false
		},
		ids: func(*Store) []string {
			all := items()
			order := make([]string, 0, len(all))

			for i := range all {
				order = append(order, id(&all[i]))
			}

			return order
		},
	}))
}

func viewSource[R, T any](view View[R, T], src *source) *source {
	show := view.ShowIn
	if show == nil {
		show = func(_ *Store, r *R) *T { return view.Show(r) }
	}

	src.show = func(st *Store, r any) any {
		if shown := show(st, r.(*R)); shown != nil { //nolint:forcetypeassert // the source holds only *R
			return shown
		}

		return nil
	}

	src.place = func(any) Placement { return Placement{} }
	if view.Place != nil {
		src.place = func(r any) Placement { return view.Place(r.(*R)) } //nolint:forcetypeassert // as above
	}

	if view.Visible != nil {
		src.visible = func(r any, caller *Caller) bool { return view.Visible(r.(*R), caller) } //nolint:forcetypeassert // as above
	}

	return src
}

// lookup finds the record of id in the first source of T that shows it.
func lookup[T any](st *Store, id string) (*source, any, *T, bool) {
	for _, src := range st.reg.sources[reflect.TypeFor[T]()] {
		record, ok := src.get(st, id)
		if !ok {
			continue
		}

		if shown, ok := src.show(st, record).(*T); ok {
			return src, record, shown, true
		}
	}

	return nil, nil, nil, false
}

// Get reads the object of type T with the given ID, whichever family keeps it.
func Get[T any](st *Store, id string) (*T, bool) {
	_, _, shown, ok := lookup[T](st, id)

	return shown, ok
}

// Find is Get with where the object lives.
func Find[T any](st *Store, id string) (*T, Placement, bool) {
	src, record, shown, ok := lookup[T](st, id)
	if !ok {
		return nil, Placement{}, false
	}

	return shown, src.place(record), true
}

// Visible is Get for a caller: an object it may not see is not there.
func Visible[T any](st *Store, caller *Caller, id string) (*T, bool) {
	src, record, shown, ok := lookup[T](st, id)
	if !ok || (src.visible != nil && !src.visible(record, caller)) {
		return nil, false
	}

	return shown, true
}

// All is every object of type T, by ID: each kind's in ID order, each catalogue's in
// its own order.
func All[T any](st *Store) iter.Seq2[string, *T] {
	return func(yield func(string, *T) bool) {
		for _, src := range st.reg.sources[reflect.TypeFor[T]()] {
			for _, id := range src.ids(st) {
				record, _ := src.get(st, id)

				shown, ok := src.show(st, record).(*T)
				if ok && !yield(id, shown) {
					return
				}
			}
		}
	}
}

// registry is what the families registered with one server: it is shared by its
// store and every copy of it.
type registry struct {
	kinds      []*kindInfo
	sections   []*sectionInfo
	names      map[string]bool
	sources    map[reflect.Type][]*source
	references []func(st *Store) []Reference
	quotaKinds map[string]QuotaKind
	creators   map[reflect.Type]func(st *Store, object any, place Placement, now time.Time) any
}

func newRegistry() *registry {
	return &registry{names: map[string]bool{"version": true}, sources: map[reflect.Type][]*source{}, quotaKinds: map[string]QuotaKind{}, creators: map[reflect.Type]func(*Store, any, Placement, time.Time) any{}}
}

func (r *registry) claim(name string) {
	if r.names[name] {
		panic(fmt.Sprintf("sandbox: the state file's key %q is registered twice", name))
	}

	r.names[name] = true
}

func (r *registry) addKind(kind *kindInfo) {
	r.claim(kind.name)
	r.kinds = append(r.kinds, kind)
}

func (r *registry) kind(name string) *kindInfo {
	for _, kind := range r.kinds {
		if kind.name == name {
			return kind
		}
	}

	panic(fmt.Sprintf("sandbox: kind %q is exposed before it is registered", name))
}

func (r *registry) addSection(section *sectionInfo) {
	r.claim(section.name)
	r.sections = append(r.sections, section)
}

func (r *registry) addSource(t reflect.Type, src *source) {
	r.sources[t] = append(r.sources[t], src)
}

// KindNames are the names of the kinds registered, sorted: what a state file holds
// records of.
func (st *Store) KindNames() []string {
	names := make([]string, 0, len(st.reg.kinds))
	for _, kind := range st.reg.kinds {
		names = append(names, kind.name)
	}

	sort.Strings(names)

	return names
}

// Accept lets other families create records of kind as T, as a Kubernetes client
// creates a resource that another controller then looks after (a server's snapshot,
// an image the cloud makes): build makes the record, its ID chosen, from the object
// asked for and where it lives.
func Accept[R, T any](s *Server, kind *Kind[R], build func(object *T, place Placement, now time.Time) (id string, record *R)) {
	s.reg.creators[reflect.TypeFor[T]()] = func(st *Store, object any, place Placement, now time.Time) any {
		id, record := build(object.(*T), place, now) //nolint:forcetypeassert // Create passes only *T
		kind.Put(st, id, record)

		return record
	}
}

// Create makes an object of type T in the family that accepts it (Accept) and returns
// it as that family shows it.
func Create[T any](st *Store, object *T, place Placement, now time.Time) (*T, error) {
	create, ok := st.reg.creators[reflect.TypeFor[T]()]
	if !ok {
		return nil, fmt.Errorf("sandbox: no family accepts %s", reflect.TypeFor[T]())
	}

	record := create(st, object, place, now)

	for _, src := range st.reg.sources[reflect.TypeFor[T]()] {
		if src.kind != nil && reflect.TypeOf(record) == src.kind.mapType.Elem() {
			if shown, ok := src.show(st, record).(*T); ok {
				return shown, nil
			}
		}
	}

	return nil, fmt.Errorf("sandbox: the family that accepts %s does not show it", reflect.TypeFor[T]())
}
