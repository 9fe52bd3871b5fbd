package sandbox

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"time"
)

// Read lag follows how real Unikorn serves reads: region and compute are Kubernetes
// controllers whose handlers read through an informer cache, so a list or a GET just
// after a write may answer from a cache that has not yet seen it. Lists and GETs share
// that one cache, so they lag together: a just-created object is missing from both (a
// GET answers 404), an updated or transitioned object shows its previous version, and
// a deleted object is still listed as it was. Writes read the objects they change from
// the API server, so they always act on the latest version.
//
// The mechanism is generic: every map of the world from ID to record is an object kind,
// and lag is kept per (kind, ID), so kinds added later lag without further work.

// lagKey names one object of the world.
type lagKey struct {
	kind string
	id   string
}

// lagEntry is what the cache still shows of an object until a moment passes.
type lagEntry struct {
	// stale is the object's JSON as the cache has it; nil means the cache has not seen
	// the object at all.
	stale []byte
	until time.Time
	// since is when the cache began to trail the object; it shows no version older
	// than one current within the read lag, so until never passes since plus the lag.
	since time.Time
	// record is stale decoded into the world's record type, once a read needed it.
	record reflect.Value
}

// readLag holds the stale views of recently written objects. The sandbox's mu guards it.
//
// What it costs does not grow with the world where it need not: a read patches the
// few lagging objects into the world for as long as it runs, rather than copying
// the world, and a write compares the world with the versions the last change left
// (known) rather than encoding it twice.
type readLag struct {
	max     time.Duration
	random  *rand.Rand
	entries map[lagKey]lagEntry
	// known is every object of the world as JSON as the last recorded change left it,
	// which is the world as it is whenever a request begins; nil until a write needs
	// it, and again once reads stop lagging (writes are not followed then).
	known objectSnapshot
	// caughtUp counts the lags that have run out: each changes what reads see.
	caughtUp uint64
}

func newReadLag(maximum time.Duration, seed uint64) *readLag {
	l := &readLag{max: maximum, entries: map[lagKey]lagEntry{}}
	l.reseed(seed)

	return l
}

func (l *readLag) reseed(seed uint64) {
	//nolint:gosec // Read lag is a simulation, not security.
	l.random = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// objectSnapshot is every object of the world as JSON, by kind and ID.
type objectSnapshot map[string]map[string][]byte

// snapshot is the world before a request, or nil when nothing can lag.
func (l *readLag) snapshot(w *world) objectSnapshot {
	if l.max <= 0 {
		l.known = nil

		return nil
	}

	if l.known == nil {
		l.known = snapshotObjects(w)
	}

	return l.known
}

func snapshotObjects(w *world) objectSnapshot {
	snapshot := objectSnapshot{}

	for kind, records := range objectKinds(w) {
		objects := map[string][]byte{}

		for _, id := range records.MapKeys() {
			data, err := json.Marshal(records.MapIndex(id).Interface())
			if err != nil {
				panic(err) // The world saves as JSON, so every record encodes.
			}

			objects[id.String()] = data
		}

		snapshot[kind] = objects
	}

	return snapshot
}

// record starts a lag for every object that changed since before, each for its own
// random time in [0, max]. An object already lagging keeps the version the cache
// shows for as long as LaterShown says.
func (l *readLag) record(before objectSnapshot, w *world, now time.Time) {
	if before == nil {
		return
	}

	after := snapshotObjects(w)
	l.recordChanges(before, after, now)
	l.known = after
}

// recordChanges is record for snapshots taken by their owner: the compute service
// keeps its instances apart from the world, and they lag all the same.
func (l *readLag) recordChanges(before, after objectSnapshot, now time.Time) {
	for _, kind := range sortedKeys(after) {
		ids := map[string]bool{}
		for id := range before[kind] {
			ids[id] = true
		}

		for id := range after[kind] {
			ids[id] = true
		}

		for _, id := range sortedKeys(ids) {
			old, current := before[kind][id], after[kind][id]
			if bytes.Equal(old, current) {
				continue
			}

			until := now.Add(time.Duration(l.random.Int64N(int64(l.max) + 1)))
			key := lagKey{kind: kind, id: id}

			if entry, ok := l.entries[key]; ok && entry.until.After(now) {
				since := entry.since
				entry.until = since.Add(LaterShown(entry.until.Sub(since), now.Sub(since), until.Sub(since), l.max))
				l.entries[key] = entry

				continue
			}

			if until.After(now) {
				l.entries[key] = lagEntry{stale: old, until: until, since: now}
			}
		}
	}
}

// LaterShown is when a cache that trails writes by up to lag shows the second of two
// changes to one object, counted from the first: it would show the first at
// firstShown, and the second, made at secondMade, at secondShown. A cache still
// trailing the first when the second comes shows neither until the later of the two,
// but no later than a lag after the first: an object that keeps changing is still
// seen within the read lag. A cache that has caught up with the first shows the
// second when it would; the sandbox's own cache starts a new trail then, and the
// bench's floor of the read lag asks about both.
func LaterShown(firstShown, secondMade, secondShown, lag time.Duration) time.Duration {
	if firstShown <= secondMade {
		return secondShown
	}

	return max(firstShown, min(secondShown, lag))
}

// overlay shows the world as a read sees it now: it puts the version the cache has of
// each lagging object in the world's place (or takes out one the cache has not seen)
// and returns what puts the world back. Reads change nothing, so the world itself
// serves them for the few moments they run; a copy of it would cost as much as the
// world is large.
func (l *readLag) overlay(w *world, now time.Time) (restore func()) {
	l.sweep(now)

	if len(l.entries) == 0 {
		return func() {}
	}

	type replaced struct {
		records, id, previous reflect.Value
	}

	var undo []replaced

	kinds := objectKinds(w)

	for key, entry := range l.entries {
		records, ok := kinds[key.kind]
		if !ok {
			continue // Not the world's: the compute service's instances.
		}

		if records.IsNil() {
			records.Set(reflect.MakeMap(records.Type()))
		}

		id := reflect.ValueOf(key.id)
		undo = append(undo, replaced{records: records, id: id, previous: records.MapIndex(id)})

		if entry.stale == nil {
			records.SetMapIndex(id, reflect.Value{})

			continue
		}

		if !entry.record.IsValid() {
			record := reflect.New(records.Type().Elem().Elem())
			if err := json.Unmarshal(entry.stale, record.Interface()); err != nil {
				panic(err)
			}

			entry.record = record
			l.entries[key] = entry
		}

		records.SetMapIndex(id, entry.record)
	}

	return func() {
		// An invalid previous value (the object was not there) deletes the key again.
		for _, r := range slices.Backward(undo) {
			r.records.SetMapIndex(r.id, r.previous)
		}
	}
}

// view is the world as a read sees it now, for a write that must know what the cache
// shows: the world itself when nothing lags, else a copy in which lagging objects are
// as the cache has them. Unlike overlay it copies the world, since the write goes on
// to change it.
func (l *readLag) view(w *world, now time.Time) *world {
	l.sweep(now)

	if !l.lagsAny(objectKinds(w)) {
		return w
	}

	data, err := json.Marshal(w)
	if err != nil {
		panic(err)
	}

	stale := newWorld()
	if err := json.Unmarshal(data, stale); err != nil {
		panic(err)
	}

	kinds := objectKinds(stale)

	for key, entry := range l.entries {
		records, ok := kinds[key.kind]
		if !ok {
			continue // Not the world's: the compute service's instances.
		}

		id := reflect.ValueOf(key.id)

		if records.IsNil() {
			records.Set(reflect.MakeMap(records.Type()))
		}

		if entry.stale == nil {
			records.SetMapIndex(id, reflect.Value{})

			continue
		}

		record := reflect.New(records.Type().Elem().Elem())
		if err := json.Unmarshal(entry.stale, record.Interface()); err != nil {
			panic(err)
		}

		records.SetMapIndex(id, record)
	}

	return stale
}

// lagsAny reports whether an object of one of kinds lags.
func (l *readLag) lagsAny(kinds map[string]reflect.Value) bool {
	for key := range l.entries {
		if _, ok := kinds[key.kind]; ok {
			return true
		}
	}

	return false
}

// nextCatchUp is when the first lag on an object of kind runs out, or the zero time
// when none lags.
func (l *readLag) nextCatchUp(kind string) time.Time {
	var next time.Time

	for key, entry := range l.entries {
		if key.kind == kind && (next.IsZero() || entry.until.Before(next)) {
			next = entry.until
		}
	}

	return next
}

// sweep forgets the lags that have run out.
func (l *readLag) sweep(now time.Time) {
	for key, entry := range l.entries {
		if !entry.until.After(now) {
			delete(l.entries, key)

			l.caughtUp++
		}
	}
}

// staleOf is what the cache still shows of the objects of kind that lag, by ID: nil
// for an object it has not seen at all.
func (l *readLag) staleOf(kind string, now time.Time) map[string][]byte {
	l.sweep(now)

	stale := map[string][]byte{}

	for key, entry := range l.entries {
		if key.kind == kind {
			stale[key.id] = entry.stale
		}
	}

	return stale
}

// objectKinds finds every map of the world from ID to record, by field name.
func objectKinds(w *world) map[string]reflect.Value {
	kinds := map[string]reflect.Value{}
	value := reflect.ValueOf(w).Elem()

	for i := range value.NumField() {
		field := value.Field(i)
		if field.Kind() == reflect.Map && field.Type().Key().Kind() == reflect.String && field.Type().Elem().Kind() == reflect.Pointer {
			kinds[value.Type().Field(i).Name] = field
		}
	}

	return kinds
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}

	sort.Strings(keys)

	return keys
}

// changed notes a change of the world outside its transitions: what reads see may
// differ (see changes), and a transition may have been scheduled, or a condition met,
// that the next request must look at. Callers hold mu.
func (s *Sandbox) changed() {
	s.generation++
	s.dueAt = time.Time{}
}

// advanceLagged applies the transitions due by now, the cache trailing them as it
// trails any write. They are recorded before the request they came due in is served:
// a read must not see what the next read hides again.
//
// Each transition is applied at the time it fell due, and the cache trails it from
// then, not from the request that applies it: the cloud's controllers act on time
// whether anyone asks or not. A transition the sandbox applied only when the next
// request came would show up later the fewer requests were made, so a client that
// polls less would be seen as slower to notice, and what a transition stamps (a
// share's usage report) would say when it was asked about.
func (s *Sandbox) advanceLagged(now time.Time) bool {
	// Nothing falls due before dueAt, unless a write since scheduled something.
	if !s.dueAt.IsZero() && now.Before(s.dueAt) {
		return false
	}

	advanced := false

	// Every step takes a schedule's first transition, so the due times move on. One
	// that applied nothing ends the steps, and the final advance applies the rest at
	// the request's time.
	for due := nextDue(s.world); !due.After(now); due = nextDue(s.world) {
		before := s.lag.snapshot(s.world)
		if !s.world.advance(due) {
			break
		}

		s.lag.record(before, s.world, due)
		advanced = true
	}

	// What falls due on a condition rather than a time (a project deleted once
	// nothing holds it) is applied now.
	before := s.lag.snapshot(s.world)
	if s.world.advance(now) {
		s.lag.record(before, s.world, now)

		advanced = true
	}

	// After a transition, the next request looks again: one may have freed what
	// waits on a condition.
	s.dueAt = time.Time{}

	if advanced {
		s.generation++
	} else {
		s.dueAt = nextDue(s.world)
	}

	return advanced
}

// handleLagged runs a handler; a read runs against the world as the cache shows it.
// What a write changes the cache trails.
func (s *Sandbox) handleLagged(req *request, handler apiHandler) (*reply, error) {
	if req.Method != http.MethodGet {
		before := s.lag.snapshot(s.world)
		defer s.lag.record(before, s.world, req.now)

		return handler(req)
	}

	defer s.lag.overlay(s.world, req.now)()

	return handler(req)
}
