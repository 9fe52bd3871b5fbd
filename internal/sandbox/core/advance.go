package core

import (
	"net/http"
	"reflect"
	"sync"
	"time"
)

// Advance registers what a family's controllers do as time passes: fn applies the
// transitions of its records due by now and reports whether anything changed. Every
// request first brings the world up to date, in the order the families registered.
func (s *Server) Advance(fn func(st *Store, now time.Time) bool) {
	s.advances = append(s.advances, fn)
}

// AdvanceLast is Advance for what follows everything else in one pass: a project whose
// last holder went in this pass goes with it.
func (s *Server) AdvanceLast(fn func(st *Store, now time.Time) bool) {
	s.lastAdvances = append(s.lastAdvances, fn)
}

// advance applies every transition that has fallen due by now and reports whether
// anything changed.
func (s *Server) advance(now time.Time) bool {
	changed := false

	for _, fn := range s.advances {
		if fn(s.store, now) {
			changed = true
		}
	}

	for _, fn := range s.lastAdvances {
		if fn(s.store, now) {
			changed = true
		}
	}

	return changed
}

// changed notes a change of the store outside its transitions: what reads see may
// differ (see changes), and a transition may have been scheduled, or a condition met,
// that the next request must look at. Callers hold mu.
func (s *Server) changed() {
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
func (s *Server) advanceLagged(now time.Time) bool {
	// Nothing falls due before dueAt, unless a write since scheduled something.
	if !s.dueAt.IsZero() && now.Before(s.dueAt) {
		return false
	}

	advanced := false

	// Every step takes a schedule's first transition, so the due times move on. One
	// that applied nothing ends the steps, and the final advance applies the rest at
	// the request's time.
	for due := nextDue(s.store); !due.After(now); due = nextDue(s.store) {
		before := s.lag.snapshot(s.store)
		if !s.advance(due) {
			break
		}

		s.lag.record(before, s.store, due)
		advanced = true
	}

	// What falls due on a condition rather than a time (a project deleted once
	// nothing holds it) is applied now.
	before := s.lag.snapshot(s.store)
	if s.advance(now) {
		s.lag.record(before, s.store, now)

		advanced = true
	}

	// After a transition, the next request looks again: one may have freed what
	// waits on a condition.
	s.dueAt = time.Time{}

	if advanced {
		s.generation++
	} else {
		s.dueAt = nextDue(s.store)
	}

	return advanced
}

// handleLagged runs a handler; a read runs against the store as the cache shows it.
// What a write changes the cache trails.
func (s *Server) handleLagged(req *Request, handler Handler) (*Reply, error) {
	if req.Method != http.MethodGet {
		before := s.lag.snapshot(s.store)
		defer s.lag.record(before, s.store, req.Now)

		return handler(req)
	}

	defer s.lag.overlay(s.store, req.Now)()

	return handler(req)
}

// never stands for no transition pending.
var never = time.Date(9999, time.December, 31, 0, 0, 0, 0, time.UTC)

// nextDue is when the earliest transition of any record of the store falls due, or
// never. It finds the schedules of every kind by their type, wherever a record holds
// them (a file storage's attachments have their own), so that a kind a family adds is
// looked at without further work; the families' advances apply them.
func nextDue(st *Store) time.Time {
	next := never

	for _, records := range st.records {
		if !holdsSchedules(records.Type()) {
			continue
		}

		for iterator := records.MapRange(); iterator.Next(); {
			earliestDue(iterator.Value(), &next)
		}
	}

	return next
}

// earliestDue lowers next to the first due time of any schedule within v.
func earliestDue(v reflect.Value, next *time.Time) {
	if !holdsSchedules(v.Type()) {
		return
	}

	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			earliestDue(v.Elem(), next)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			earliestDue(v.Field(i), next)
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == reflect.TypeFor[Schedule]() {
			if pending := v.Interface().(Schedule); len(pending) > 0 && pending[0].Due.Before(*next) { //nolint:forcetypeassert // its type
				*next = pending[0].Due
			}

			return
		}

		for i := range v.Len() {
			earliestDue(v.Index(i), next)
		}
	case reflect.Map:
		for iterator := v.MapRange(); iterator.Next(); {
			earliestDue(iterator.Value(), next)
		}
	default:
	}
}

// scheduleHolders caches, per type, whether a value of it can hold a schedule.
var scheduleHolders sync.Map

// holdsSchedules reports whether a value of type t can hold a Schedule, so that the
// walk skips what cannot (names, addresses, the cloud's own structures).
func holdsSchedules(t reflect.Type) bool {
	if cached, ok := scheduleHolders.Load(t); ok {
		return cached.(bool) //nolint:forcetypeassert // stored below
	}

	holds := typeHoldsSchedules(t, map[reflect.Type]bool{})
	scheduleHolders.Store(t, holds)

	return holds
}

// typeHoldsSchedules is holdsSchedules without the cache; a type already being looked
// at (a recursive one) holds a schedule only through another part of it.
func typeHoldsSchedules(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if t == reflect.TypeFor[Schedule]() {
		return true
	}

	if visiting[t] {
		return false
	}

	visiting[t] = true

	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return typeHoldsSchedules(t.Elem(), visiting)
	case reflect.Struct:
		for i := range t.NumField() {
			if typeHoldsSchedules(t.Field(i).Type, visiting) {
				return true
			}
		}
	default:
	}

	return false
}
