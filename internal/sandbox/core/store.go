package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Kind describes one kind of record a family keeps, as a Kubernetes CRD describes one
// kind of resource. Everything but Name is optional. The store keeps the records of
// every kind registered, by ID; the read lag, the state file, the objects listing and
// the world's pending transitions cover them without the kind doing anything more.
type Kind[R any] struct {
	// Name is the kind's key in the state file, and its name to the read lag.
	Name string
	// Noun names a record of the kind that holds another, as in "region network".
	Noun string
	// Object is how the objects listing shows a record, which may read other records of
	// the store; nil leaves the kind's records out, as no object a user makes (unless
	// Project says how).
	Object func(st *Store, r *R) Object
	// Project is a project-scoped record's metadata, for a kind whose records live in
	// a project, as region's and compute's do: the objects listing shows one as
	// ObjectKind in its project (unless Object says otherwise), and each holds its
	// project in use, as every service references the project it creates in.
	Project    func(*R) *unikorn.ProjectScopedMetadata
	ObjectKind string
	// References are the objects a record holds in use (beyond its project), as a
	// reference finalizer it puts on each would: a delete of one of them is refused,
	// or waits, while a holder is left (Holders).
	References func(*R) []Ref
	// Owner is the object whose deletion takes the record along, as a Kubernetes
	// owner reference does (Collect); the zero Ref for none.
	Owner func(*R) Ref
	// Life is the record's metadata and pending transitions, which a deletion its
	// owner starts marks.
	Life func(*R) (*unikorn.ReadMetadata, *Schedule)
	// Ports are the addresses a record holds on networks, as the cloud's ports do.
	Ports func(*R) []Port
	// Subnet is the address range a record of the kind is, for the addresses the
	// cloud hands out in it.
	Subnet func(*R) *Subnet
}

// kindInfo is a kind as a server registered it, its functions taking records as any.
type kindInfo struct {
	name       string
	noun       string
	mapType    reflect.Type
	object     func(*Store, any) Object
	references func(any) []Ref
	owner      func(any) Ref
	life       func(any) (*unikorn.ReadMetadata, *Schedule)
	ports      func(any) []Port
	subnet     func(any) *Subnet
}

// Register adds a kind to the server's store.
func Register[R any](s *Server, kind *Kind[R]) {
	info := &kindInfo{name: kind.Name, noun: kind.Noun, mapType: reflect.TypeFor[map[string]*R]()}

	object, references := kind.Object, kind.References
	if kind.Project != nil {
		object, references = kind.inProject()
	}

	if object != nil {
		info.object = func(st *Store, r any) Object { return object(st, r.(*R)) } //nolint:forcetypeassert // the kind's map holds only *R
	}

	if references != nil {
		info.references = func(r any) []Ref { return references(r.(*R)) } //nolint:forcetypeassert // as above
	}

	if kind.Owner != nil {
		info.owner = func(r any) Ref { return kind.Owner(r.(*R)) } //nolint:forcetypeassert // as above
	}

	if kind.Life != nil {
		info.life = func(r any) (*unikorn.ReadMetadata, *Schedule) { return kind.Life(r.(*R)) } //nolint:forcetypeassert // as above
	}

	if kind.Ports != nil {
		info.ports = func(r any) []Port { return kind.Ports(r.(*R)) } //nolint:forcetypeassert // as above
	}

	if kind.Subnet != nil {
		info.subnet = func(r any) *Subnet { return kind.Subnet(r.(*R)) } //nolint:forcetypeassert // as above
	}

	s.reg.addKind(info)
}

// inProject are the listing and the references of a kind of project-scoped records.
func (k *Kind[R]) inProject() (object func(*Store, *R) Object, references func(*R) []Ref) {
	object = k.Object
	if object == nil {
		object = func(_ *Store, r *R) Object { return ProjectObject(k.ObjectKind, k.Project(r)) }
	}

	references = func(r *R) []Ref {
		refs := []Ref{RefTo[unikorn.Project](k.Project(r).ProjectID)}
		if k.References != nil {
			refs = append(refs, k.References(r)...)
		}

		return refs
	}

	return object, references
}

// Records is the kind's records in the store, by ID: the live map, which a write
// changes and a read under read lag sees overlaid with what the cache still shows.
func (k *Kind[R]) Records(st *Store) map[string]*R {
	return st.records[k.Name].Interface().(map[string]*R) //nolint:forcetypeassert // Register made it so
}

// Get is one record.
func (k *Kind[R]) Get(st *Store, id string) (*R, bool) {
	record, ok := k.Records(st)[id]

	return record, ok
}

// Put stores a record under id.
func (k *Kind[R]) Put(st *Store, id string, record *R) {
	k.Records(st)[id] = record
}

// Delete removes a record.
func (k *Kind[R]) Delete(st *Store, id string) {
	delete(k.Records(st), id)
}

// Sorted is the kind's records in ID order, the order of Kubernetes-backed lists.
func (k *Kind[R]) Sorted(st *Store) []*R {
	return ByID(k.Records(st))
}

// Section is state a family keeps beyond records by ID (a cursor, a table by
// organization, a service's own encoded records), saved under Name.
type Section[T any] struct {
	Name string
}

type sectionInfo struct {
	name string
	typ  reflect.Type
}

// RegisterSection adds a section to the server's store.
func RegisterSection[T any](s *Server, section *Section[T]) {
	s.reg.addSection(&sectionInfo{name: section.Name, typ: reflect.TypeFor[T]()})
}

// Get is the section's value in the store, to read or change.
func (sec *Section[T]) Get(st *Store) *T {
	return st.sections[sec.Name].Interface().(*T) //nolint:forcetypeassert // RegisterSection made it so
}

// Store is everything a user can change: what the state file saves and loads. The
// catalogue (regions, flavors, global images, roles) is fixed and exposed by its
// families, so a state file never pins an old catalogue.
type Store struct {
	reg      *registry
	version  int
	records  map[string]reflect.Value
	sections map[string]reflect.Value
}

func newStore(reg *registry) *Store {
	st := &Store{reg: reg, version: StateVersion, records: map[string]reflect.Value{}, sections: map[string]reflect.Value{}}

	for _, kind := range reg.kinds {
		st.records[kind.name] = reflect.MakeMap(kind.mapType)
	}

	for _, section := range reg.sections {
		st.sections[section.name] = reflect.New(section.typ)
	}

	return st
}

// MarshalJSON writes the version, then every kind's records and every section under
// their names, in the order they were registered.
func (st *Store) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer

	fmt.Fprintf(&buf, `{"version":%d`, st.version)

	write := func(name string, value any) error {
		data, err := json.Marshal(value)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}

		// An empty section is left out, as a field that omits when empty.
		if bytes.Equal(data, []byte("null")) {
			return nil
		}

		key, _ := json.Marshal(name)
		buf.WriteByte(',')
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(data)

		return nil
	}

	for _, kind := range st.reg.kinds {
		if err := write(kind.name, st.records[kind.name].Interface()); err != nil {
			return nil, err
		}
	}

	for _, section := range st.reg.sections {
		if err := write(section.name, st.sections[section.name].Interface()); err != nil {
			return nil, err
		}
	}

	buf.WriteByte('}')

	return buf.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON wrote, or an older sandbox did: a kind or a
// section the file lacks stays empty, and what no family registers any longer is
// left behind.
func (st *Store) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}

	if version, ok := raw["version"]; ok {
		if err := json.Unmarshal(version, &st.version); err != nil {
			return fmt.Errorf("version: %w", err)
		}
	}

	for _, kind := range st.reg.kinds {
		if data, ok := raw[kind.name]; ok {
			records := reflect.New(kind.mapType)
			if err := json.Unmarshal(data, records.Interface()); err != nil {
				return fmt.Errorf("%s: %w", kind.name, err)
			}

			if records.Elem().IsNil() {
				records.Elem().Set(reflect.MakeMap(kind.mapType))
			}

			st.records[kind.name] = records.Elem()
		}
	}

	for _, section := range st.reg.sections {
		if data, ok := raw[section.name]; ok {
			value := reflect.New(section.typ)
			if err := json.Unmarshal(data, value.Interface()); err != nil {
				return fmt.Errorf("%s: %w", section.name, err)
			}

			st.sections[section.name] = value
		}
	}

	return nil
}

// clone is a deep copy of the store, through its saved form.
func (st *Store) clone() *Store {
	data, err := json.Marshal(st)
	if err != nil {
		panic(err) // The store saves as JSON, so every record encodes.
	}

	copied := newStore(st.reg)
	if err := json.Unmarshal(data, copied); err != nil {
		panic(err)
	}

	return copied
}

// ByID returns a record map's values in ID order, the order of Kubernetes-backed lists.
func ByID[R any](records map[string]*R) []*R {
	ids := make([]string, 0, len(records))
	for id := range records {
		ids = append(ids, id)
	}

	sort.Strings(ids)

	sorted := make([]*R, 0, len(ids))
	for _, id := range ids {
		sorted = append(sorted, records[id])
	}

	return sorted
}

// SortedKeys is a map's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}

	sort.Strings(keys)

	return keys
}
