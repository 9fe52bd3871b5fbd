package core

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
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
// The mechanism is generic: every kind of the store lags, per (kind, ID), so a kind a
// family registers lags without further work.

// lagKey names one object of the store.
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
	// record is stale decoded into the kind's record type, once a read needed it.
	record reflect.Value
}

// readLag holds the stale views of recently written objects. The server's mu guards it.
//
// What it costs does not grow with the store where it need not: a read patches the
// few lagging objects into the store for as long as it runs, rather than copying
// the store, and a write compares the store with the versions the last change left
// (known) rather than encoding it twice.
type readLag struct {
	max     time.Duration
	random  *rand.Rand
	entries map[lagKey]lagEntry
	// known is every object of the store as JSON as the last recorded change left it,
	// which is the store as it is whenever a request begins; nil until a write needs
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

// objectSnapshot is every object of the store as JSON, by kind and ID.
type objectSnapshot map[string]map[string][]byte

// snapshot is the store before a request, or nil when nothing can lag.
func (l *readLag) snapshot(st *Store) objectSnapshot {
	if l.max <= 0 {
		l.known = nil

		return nil
	}

	if l.known == nil {
		l.known = snapshotObjects(st)
	}

	return l.known
}

func snapshotObjects(st *Store) objectSnapshot {
	snapshot := objectSnapshot{}

	for kind, records := range st.records {
		objects := map[string][]byte{}

		for _, id := range records.MapKeys() {
			data, err := json.Marshal(records.MapIndex(id).Interface())
			if err != nil {
				panic(err) // The store saves as JSON, so every record encodes.
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
func (l *readLag) record(before objectSnapshot, st *Store, now time.Time) {
	if before == nil {
		return
	}

	after := snapshotObjects(st)
	l.recordChanges(before, after, now)
	l.known = after
}

// recordChanges is record for snapshots taken by their owner: a service that keeps its
// records apart from the store (compute) lags all the same.
func (l *readLag) recordChanges(before, after objectSnapshot, now time.Time) {
	for _, kind := range SortedKeys(after) {
		ids := map[string]bool{}
		for id := range before[kind] {
			ids[id] = true
		}

		for id := range after[kind] {
			ids[id] = true
		}

		for _, id := range SortedKeys(ids) {
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

// overlay shows the store as a read sees it now: it puts the version the cache has of
// each lagging object in the store's place (or takes out one the cache has not seen)
// and returns what puts the store back. Reads change nothing, so the store itself
// serves them for the few moments they run; a copy of it would cost as much as the
// store is large.
func (l *readLag) overlay(st *Store, now time.Time) (restore func()) {
	l.sweep(now)

	if len(l.entries) == 0 {
		return func() {}
	}

	type replaced struct {
		records, id, previous reflect.Value
	}

	var undo []replaced

	for key, entry := range l.entries {
		records, ok := st.records[key.kind]
		if !ok {
			continue // Not the store's: a service's own records.
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

// view is the store as a read sees it now, for a write that must know what the cache
// shows: the store itself when nothing lags, else a copy in which lagging objects are
// as the cache has them. Unlike overlay it copies the store, since the write goes on
// to change it.
func (l *readLag) view(st *Store, now time.Time) *Store {
	l.sweep(now)

	if !l.lagsAny(st.records) {
		return st
	}

	stale := st.clone()

	for key, entry := range l.entries {
		records, ok := stale.records[key.kind]
		if !ok {
			continue // Not the store's: a service's own records.
		}

		id := reflect.ValueOf(key.id)

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

// SameVersion reports whether a patch under an optimistic lock, which carries the
// version of an object that a handler read through the cache (Cached), finds that
// version still current in the store: Kubernetes refuses it otherwise, and nothing is
// written. Region's handlers read an object through the controller's cache and patch
// it so (MergeFromWithOptimisticLock), so an update that lands while the cache trails
// the object's last write, its controller's say, fails: region answers 409 for load
// balancers and 500 for its other kinds. Without read lag the cache never trails.
func SameVersion[R any](cached, current *R) bool {
	if cached == nil || current == nil {
		return false
	}

	left, errLeft := json.Marshal(cached)
	right, errRight := json.Marshal(current)

	return errLeft == nil && errRight == nil && bytes.Equal(left, right)
}
