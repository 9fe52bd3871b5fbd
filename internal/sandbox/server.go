package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// controlPrefix is where the control API lives; its requests bypass latency, faults
// and stats, which exist to shape what API clients see.
const controlPrefix = "/sandbox/v1/"

// request is what an API handler works with: the HTTP request, who sent it, and the
// instant the world was brought up to date for it.
type request struct {
	*http.Request
	caller *principal
	now    time.Time
}

// apiHandler is one API operation. It runs with the world locked and advanced to now.
type apiHandler func(req *request) (*reply, error)

// ServeHTTP serves the region API, the identity API and the control API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, controlPrefix) {
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

	// Region's own base URL serves region's routes alone (version.go); the request as
	// routed marks empty path elements, and the log keeps the path the client sent.
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

// handle registers an authenticated API operation under a route pattern such as
// "GET /api/v2/servers/{serverID}".
func (s *Sandbox) handle(pattern string, handler apiHandler) {
	s.routes[pattern] = true

	s.api.HandleFunc(pattern, s.authenticated(handler))
}

// authenticated serves an API operation to a caller whose bearer token authenticates,
// once its path elements bind.
func (s *Sandbox) authenticated(handler apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := validatePathElements(r); err != nil {
			writeError(w, err)

			return
		}

		token, err := bearerToken(r)

		switch {
		case isSystemAccount(r):
			err = nil
		case err == nil && !s.plausibleToken(token):
			err = errors.New("token validation failed")
		}

		if err != nil {
			writeUnauthorized(w, r, err)

			return
		}

		status, cacheControl, body, err := s.run(r, token, handler)

		var unauthenticated *errUnauthenticated
		if errors.As(err, &unauthenticated) {
			writeUnauthorized(w, r, err)

			return
		}

		if err != nil {
			writeError(w, err)

			return
		}

		writeJSON(w, status, cacheControl, body)
	}
}

// run executes a handler against the up-to-date world and encodes its reply before
// the lock is released. A successful change is saved at once.
func (s *Sandbox) run(r *http.Request, token string, handler apiHandler) (int, string, []byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()

	now := s.now()
	advanced := s.advanceLagged(now)

	caller, err := s.callerOf(r, token, now)
	if err != nil {
		return 0, "", nil, err
	}

	rep, err := s.handleLagged(&request{Request: s.withVisibility(r), caller: caller, now: now}, handler)

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

	if rep.body != nil {
		if body, err = json.Marshal(rep.body); err != nil {
			return 0, "", nil, err
		}

		body = append(body, '\n')
	}

	return rep.status, rep.cacheControl, body, nil
}

// callerOf is who sent a request: a service on its own account, or the bearer of
// token.
func (s *Sandbox) callerOf(r *http.Request, token string, now time.Time) (*principal, error) {
	if isSystemAccount(r) {
		return systemAccount(), nil
	}

	return s.resolve(token, now)
}

// uuidPathParameters are the path parameters the contracts declare `format: uuid`:
// every ID of region's, identity's and compute's paths.
var uuidPathParameters = []string{
	"organizationID", "projectID", "regionID", "imageID", "networkID",
	"securityGroupID", "sshCertificateAuthorityID", "serverID", "allocationID", "loadBalancerID", "filestorageID",
	"groupid", "serviceAccountID", "providerID", "userID", "instanceID",
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
// then call the authorizing middleware): an empty or malformed ID is a 400 in
// handler.HandleError's words (region's and identity's pkg/handler/error.go), with or
// without a token.
func validatePathElements(r *http.Request) error {
	malformed := strings.Contains(r.URL.Path, emptyPathElement)

	for _, name := range uuidPathParameters {
		if value := r.PathValue(name); value != "" && !uuidPattern.MatchString(value) {
			malformed = true
		}
	}

	if malformed {
		return errBadRequest("invalid path/query element")
	}

	return nil
}

// writeUnauthorized is the 401 of a failed authentication, pointing the client at the
// protected resource metadata as RFC 9728 describes.
func writeUnauthorized(w http.ResponseWriter, r *http.Request, cause error) {
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error=%q, error_description=%q, resource_metadata=%q`,
		unikorn.ErrorAccessDenied, cause.Error(), baseURL(r)+"/.well-known/openid-protected-resource"))

	writeError(w, &apiError{http.StatusUnauthorized, unikorn.ErrorAccessDenied, cause.Error()})
}

// baseURL is the scheme, host and service prefix the client used to reach the sandbox.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}

	return scheme + "://" + r.Host + mountPrefix(r)
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
		writeError(w, &apiError{http.StatusNotFound, unikorn.ErrorNotFound, "no matching operation was found"})

		return
	}

	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeError(w, &apiError{http.StatusMethodNotAllowed, unikorn.ErrorMethodNotAllowed, "method not allowed"})
}

// protectedResource is core `openidProtectedResource`, which every service publishes
// so that a client given a 401 can discover where to authenticate.
func protectedResource(w http.ResponseWriter, r *http.Request) {
	body, _ := json.Marshal(map[string]any{
		"resource":                 baseURL(r),
		"authorization_servers":    []string{baseURL(r)},
		"scopes_supported":         []string{},
		"bearer_methods_supported": []string{"header"},
	})

	writeJSON(w, http.StatusOK, "", body)
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
