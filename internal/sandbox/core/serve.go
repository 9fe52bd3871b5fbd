package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ControlPrefix is where the control API lives; its requests bypass latency, faults
// and stats, which exist to shape what API clients see.
const ControlPrefix = "/sandbox/v1/"

// Request is what an API handler works with: the HTTP request, who sent it, the
// instant the store was brought up to date for it, and the store (as the cache shows
// it to a read).
type Request struct {
	*http.Request
	Caller *Caller
	Now    time.Time
	Store  *Store
}

// Handler is one API operation. It runs with the store locked and advanced to Now.
type Handler func(req *Request) (*Reply, error)

// ServeHTTP serves every service's API and the control API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, ControlPrefix) {
		if _, pattern := s.control.Handler(r); pattern == "" {
			serveUnmatched(s.control, w, r)
		} else {
			s.control.ServeHTTP(w, r)
		}

		return
	}

	start := time.Now()
	recorder := &statusRecorder{ResponseWriter: w}

	defer func() {
		s.logger.Info("request", "method", r.Method, "path", r.URL.RequestURI(), "status", recorder.status, "duration", time.Since(start))
	}()

	// A service's own base URL serves its routes alone; the request as routed marks
	// empty path elements, and the log keeps the path the client sent.
	mux, routed := s.muxFor(r)
	routed = markEmptyPathElements(routed)

	// The route template keys stats and faults: /api/v2/servers/{serverID} is one
	// route however many servers there are.
	_, pattern := mux.Handler(routed)
	latency := s.countRequest(pattern, isInternal(routed))

	if !sleep(routed.Context(), latency) {
		return
	}

	if f := s.matchFault(pattern); f != nil {
		s.inject(recorder, routed, f)

		return
	}

	if pattern == "" {
		serveUnmatched(mux, recorder, routed)

		return
	}

	// The operation's OpenAPI contract is checked before its handler runs (validate.go).
	if s.refuseInvalid(recorder, routed, pattern) {
		return
	}

	mux.ServeHTTP(recorder, routed)
}

// Handle registers an authenticated API operation under a route pattern such as
// "GET /api/v2/servers/{serverID}".
func (s *Server) Handle(pattern string, handler Handler) {
	s.routes[pattern] = true

	s.api.HandleFunc(pattern, s.authenticated(handler))
}

// HandleService registers an operation of a service-to-service API (region's servers,
// identity's allocations). Identity's chart grants these endpoints to the services'
// own roles and the platform administrator's, to no role a group gives a user, so
// they are judged by the caller's ACL alone, never by the membership that stands for
// a legacy fixture user's rights: a caller whose ACL grants the operation nowhere is
// forbidden before anything is looked up, and the handler asks for it where it acts.
func (s *Server) HandleService(endpoint, pattern string, handler Handler) {
	s.Handle(pattern, func(req *Request) (*Reply, error) {
		if !req.Caller.ACL.HoldsAnywhere(endpoint, OperationOf(req.Method)) {
			return nil, NotPermitted(endpoint, OperationOf(req.Method))
		}

		judged := *req.Caller
		judged.Legacy = false
		req.Caller = &judged

		return handler(req)
	})
}

// HandleOpen registers an operation that the service's middleware lets through
// without authenticating (x-no-security-requirements): the handler reads whatever
// credentials it takes itself.
func (s *Server) HandleOpen(pattern string, handler http.HandlerFunc) {
	s.routes[pattern] = true
	s.api.HandleFunc(pattern, handler)
}

// OperationOf is the RBAC operation a method performs.
func OperationOf(method string) string {
	switch method {
	case http.MethodGet:
		return OpRead
	case http.MethodPut:
		return OpUpdate
	case http.MethodDelete:
		return OpDelete
	default:
		return OpCreate
	}
}

// authenticated serves an API operation to a caller whose bearer token authenticates,
// or to a service on its own account (AuthenticateSystem), once its path elements
// bind.
func (s *Server) authenticated(handler Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := s.validatePathElements(r); err != nil {
			WriteError(w, err)

			return
		}

		var token string

		if !s.systemCall(r) {
			var ok bool
			if token, ok = s.plausibleBearer(w, r); !ok {
				return
			}
		}

		status, cacheControl, body, err := s.run(r, token, handler)

		var unauthenticated *Unauthenticated
		if errors.As(err, &unauthenticated) {
			WriteUnauthorized(w, r, err)

			return
		}

		if err != nil {
			WriteError(w, err)

			return
		}

		WriteJSON(w, status, cacheControl, body)
	}
}

// plausibleBearer is the request's bearer token when it is one the sandbox might
// know; otherwise it answers 401 and reports false.
func (s *Server) plausibleBearer(w http.ResponseWriter, r *http.Request) (string, bool) {
	token, err := BearerToken(r)
	if err == nil && !s.plausibleToken(token) {
		err = errors.New("token validation failed")
	}

	if err != nil {
		WriteUnauthorized(w, r, err)

		return "", false
	}

	return token, true
}

// run executes a handler, for the caller r and token name, against the up-to-date
// store and encodes its reply before the lock is released. A successful change is
// saved at once.
func (s *Server) run(r *http.Request, token string, handler Handler) (int, string, []byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()

	now := s.now()
	advanced := s.advanceLagged(now)

	caller, err := s.callerOf(r, token, now)
	if err != nil {
		return 0, "", nil, err
	}

	rep, err := s.handleLagged(&Request{Request: s.withVisibility(r), Caller: caller, Now: now, Store: s.store}, handler)

	if r.Method != http.MethodGet {
		s.changed()
	}

	if advanced || (err == nil && r.Method != http.MethodGet) {
		if saveErr := s.saveLocked(); saveErr != nil {
			s.logger.Error("saving sandbox state", "error", saveErr)
		}
	}

	if err != nil {
		return 0, "", nil, err
	}

	var body []byte

	if rep.Body != nil {
		if body, err = json.Marshal(rep.Body); err != nil {
			return 0, "", nil, err
		}

		body = append(body, '\n')
	}

	return rep.Status, rep.CacheControl, body, nil
}

// emptyPathElement stands for an empty path segment ("/organizations//regions") while
// a request is routed. Upstream's generated chi routers hand such a segment to the
// operation as an empty parameter, which binding refuses as it is required; Go's mux
// would instead redirect to the cleaned path, another operation. A real path never
// holds it: it is no UUID, nor any literal segment of a route.
const emptyPathElement = "(empty)"

// markEmptyPathElements returns r routed as upstream routes it: every empty segment
// inside the path becomes emptyPathElement, which validatePathElements refuses.
func markEmptyPathElements(r *http.Request) *http.Request {
	if !strings.Contains(r.URL.Path, "//") {
		return r
	}

	segments := strings.Split(r.URL.Path, "/")
	for i := 1; i < len(segments)-1; i++ {
		if segments[i] == "" {
			segments[i] = emptyPathElement
		}
	}

	marked := r.Clone(r.Context())
	marked.URL.Path = strings.Join(segments, "/")
	marked.URL.RawPath = ""

	return marked
}

// validatePathElements is the generated routers' binding of path parameters, which
// runs before authentication (region's and identity's pkg/openapi/router.go bind,
// then call the authorizing middleware): an empty or malformed ID (every path
// parameter a service's document declares a UUID) is a 400 in handler.HandleError's
// words (region's and identity's pkg/handler/error.go), with or without a token.
func (s *Server) validatePathElements(r *http.Request) error {
	malformed := strings.Contains(r.URL.Path, emptyPathElement)

	for _, name := range s.uuidParameters {
		if value := r.PathValue(name); value != "" && !IsUUID(value) {
			malformed = true
		}
	}

	if malformed {
		return BadRequest("invalid path/query element")
	}

	return nil
}

// WriteUnauthorized is the 401 of a failed authentication, pointing the client at the
// protected resource metadata as RFC 9728 describes.
func WriteUnauthorized(w http.ResponseWriter, r *http.Request, cause error) {
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error=%q, error_description=%q, resource_metadata=%q`,
		unikorn.ErrorAccessDenied, cause.Error(), BaseURL(r)+"/.well-known/openid-protected-resource"))

	WriteError(w, &Error{http.StatusUnauthorized, unikorn.ErrorAccessDenied, cause.Error()})
}

// BaseURL is the scheme, host and service prefix the client used to reach the sandbox.
func BaseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}

	return scheme + "://" + r.Host + MountPrefix(r)
}

// serveUnmatched answers a request no route takes: 405 when the path exists for
// another method, 404 otherwise.
func serveUnmatched(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allowed []string

	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = method

		if _, pattern := mux.Handler(probe); pattern != "" {
			allowed = append(allowed, method)
		}
	}

	if len(allowed) == 0 {
		WriteError(w, &Error{http.StatusNotFound, unikorn.ErrorNotFound, "no matching operation was found"})

		return
	}

	w.Header().Set("Allow", strings.Join(allowed, ", "))
	WriteError(w, &Error{http.StatusMethodNotAllowed, unikorn.ErrorMethodNotAllowed, "method not allowed"})
}

// protectedResource is core `openidProtectedResource`, which every service publishes
// so that a client given a 401 can discover where to authenticate.
func protectedResource(w http.ResponseWriter, r *http.Request) {
	body, _ := json.Marshal(map[string]any{
		"resource":                 BaseURL(r),
		"authorization_servers":    []string{BaseURL(r)},
		"scopes_supported":         []string{},
		"bearer_methods_supported": []string{"header"},
	})

	WriteJSON(w, http.StatusOK, "", body)
}

// sleep waits for d unless the client goes away first; it reports whether to carry on.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}

	timer := time.NewTimer(d)
	defer timer.Stop()

	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// statusRecorder remembers the status of a response for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}

	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection to drop it.
func (r *statusRecorder) Unwrap() http.ResponseWriter {
	return r.ResponseWriter
}

// isRoute reports whether route is the template of a registered API route, for the
// given method or, when method is empty, for any.
func (s *Server) isRoute(method, route string) bool {
	for pattern := range s.routes {
		patternMethod, patternRoute, _ := strings.Cut(pattern, " ")
		if patternRoute == route && (method == "" || method == patternMethod) {
			return true
		}
	}

	return false
}

// Patterns are the API route templates registered, sorted.
func (s *Server) Patterns() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for pattern := range s.routes {
			if !yield(pattern) {
				return
			}
		}
	})
}
