package core

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// A service that serves itself (compute, and any service added beside it) reaches
// region and identity as the real one does, over their HTTP APIs: what the server
// offers it here makes those calls, and its own records, behave as everyone's do.

// internalKey marks a request a service makes on its own account.
type internalKey struct{}

func isInternal(r *http.Request) bool {
	internal, _ := r.Context().Value(internalKey{}).(bool)

	return internal
}

// Transport carries a service's calls to region and identity through the server's own
// handler, marked so that they are counted apart from the callers' requests.
func (s *Server) Transport() http.RoundTripper {
	return inProcess{s}
}

type inProcess struct{ s *Server }

func (t inProcess) RoundTrip(r *http.Request) (response *http.Response, err error) {
	// A fault that drops the connection aborts the handler; the service sees a lost
	// answer.
	defer func() {
		if recovered := recover(); recovered != nil {
			if recovered != http.ErrAbortHandler { //nolint:errorlint // panics carry the sentinel itself
				panic(recovered)
			}

			response, err = nil, errors.New("connection closed before the answer")
		}
	}()

	recorder := httptest.NewRecorder()
	t.s.ServeHTTP(recorder, r.WithContext(context.WithValue(r.Context(), internalKey{}, true)))

	return recorder.Result(), nil
}

// ServiceCache is the informer cache a service's handlers read its own records
// through: the server's one read lag, as one setting for every service. A service
// calls it holding only its own lock.
type ServiceCache struct{ s *Server }

// Cache is the server's read lag, for a service's own records.
func (s *Server) Cache() ServiceCache {
	return ServiceCache{s}
}

// Trails reports whether reads may trail writes at all.
func (c ServiceCache) Trails() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()

	return c.s.lag.max > 0
}

// Record notes which objects of kind changed between before and after.
func (c ServiceCache) Record(kind string, before, after map[string][]byte) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()

	c.s.lag.recordChanges(objectSnapshot{kind: before}, objectSnapshot{kind: after}, c.s.now())
}

// Stale is what reads still see of the lagging objects of kind.
func (c ServiceCache) Stale(kind string) map[string][]byte {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()

	return c.s.lag.staleOf(kind, c.s.now())
}

// Changes brings the store up to date, as the request a service's controller would
// send does, and counts every change of the store and of what the cache shows. While
// fault rules are installed any call may fail, so it moves every time.
func (s *Server) Changes() uint64 {
	s.faultsMu.Lock()
	faulty := len(s.faults) > 0
	s.faultsMu.Unlock()

	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()
	s.lag.sweep(s.now())

	if faulty {
		s.generation++
	}

	return s.generation + s.lag.caughtUp
}

// NextChange is when the records shown as T next change with no call made: a
// transition of one falls due, or the lag on one runs out, whichever comes first; the
// zero time for never. A controller whose watch follows them is woken then. It is
// called holding the service's own lock, never from inside a request.
func NextChange[T any](s *Server) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()

	next := never

	for _, kind := range s.kindsShowing(reflect.TypeFor[T]()) {
		for iterator := s.store.records[kind.name].MapRange(); iterator.Next(); {
			earliestDue(iterator.Value(), &next)
		}

		if caughtUp := s.lag.nextCatchUp(kind.name); !caughtUp.IsZero() && caughtUp.Before(next) {
			next = caughtUp
		}
	}

	if next.Equal(never) {
		return time.Time{}
	}

	return next
}

// kindsShowing are the kinds exposed as t.
func (s *Server) kindsShowing(t reflect.Type) []*kindInfo {
	var kinds []*kindInfo

	for _, kind := range s.reg.kinds {
		for _, src := range s.reg.sources[t] {
			if src.kind == kind {
				kinds = append(kinds, kind)
			}
		}
	}

	return kinds
}

// AuthorizeInProject is what identity's ACL for the token allows in the project, by
// the rules every service of the sandbox checks: nil when it does, else identity's
// refusal as a *unikorn.APIError. A service calls it holding only its own lock.
func (s *Server) AuthorizeInProject(token, organizationID, projectID, endpoint, operation string) error {
	s.mu.Lock()
	defer s.mu.Unlock()

	caller, err := s.resolve(token, s.now())
	if err == nil {
		err = AllowInProject(caller, organizationID, projectID, endpoint, operation)
	}

	var refusal *Error
	if errors.As(err, &refusal) {
		return &unikorn.APIError{StatusCode: refusal.Status, Code: refusal.Code, Description: refusal.Description}
	}

	var unauthenticated *Unauthenticated
	if errors.As(err, &unauthenticated) {
		return &unikorn.APIError{StatusCode: http.StatusUnauthorized, Code: unikorn.ErrorAccessDenied, Description: unauthenticated.Cause}
	}

	return err
}

// Keep saves what a service keeps of its own records in its section of the store. A
// service calls it holding only its own lock, never from inside a request.
func Keep[T any](s *Server, section *Section[T], value T) {
	s.mu.Lock()
	defer s.mu.Unlock()

	*section.Get(s.store) = value
	// What the service holds may hold another's deletion (a project's).
	s.changed()

	if err := s.saveLocked(); err != nil {
		s.logger.Error("saving sandbox state", "error", err)
	}
}

// Kept is what the service's section holds now.
func Kept[T any](s *Server, section *Section[T]) T {
	s.mu.Lock()
	defer s.mu.Unlock()

	return *section.Get(s.store)
}
