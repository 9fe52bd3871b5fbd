package sandbox

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Region and identity share the sandbox's root: their paths do not collide, so one base
// URL serves both, and the provider's configuration names it for each. Only
// /api/version collides, each service naming itself there. The root answers as
// identity, whose base URL it is beyond doubt (it alone serves /oauth2); region is also
// served on a base URL of its own, RegionPrefix, where its routes alone are found and
// /api/version answers as region, so that a client that asks a service who it is, as
// region's and identity's API suites do, reaches the one it means.

// RegionPrefix is region's own base URL on the sandbox's listener.
const RegionPrefix = "/region"

// The release each simulated service reports: its binary's name, as Unikorn's
// constants.Application takes it from os.Args[0], and the version of Unikorn the
// sandbox follows (pkg/handler/handler_version.go of each).
const (
	identityApplication = "unikorn-identity"
	identityRelease     = "1.18.1"
	regionApplication   = "unikorn-region-controller"
	regionRelease       = "1.20.0"
)

func identityVersion(*request) (*reply, error) {
	return uncacheable(replyOK(unikorn.ServiceVersion{Name: identityApplication, Version: identityRelease})), nil
}

func regionVersion(*request) (*reply, error) {
	return uncacheable(replyOK(unikorn.ServiceVersion{Name: regionApplication, Version: regionRelease})), nil
}

// isRegionPath reports whether an API path is region's: region v1.20.0's paths are its
// v2 API and, in v1, an organization's regions and what hangs off them; identity has
// neither.
func isRegionPath(path string) bool {
	return strings.HasPrefix(path, "/api/v2/") || strings.HasPrefix(path, "/api/v1/organizations/{organizationID}/regions")
}

// mountRegion builds region's base URL from the routes registered so far: region's
// operations, served by the same handlers as at the root, its protected resource
// metadata and its version.
func (s *Sandbox) mountRegion() {
	s.region = http.NewServeMux()

	for pattern := range s.routes {
		if _, path, _ := strings.Cut(pattern, " "); isRegionPath(path) {
			s.region.Handle(pattern, s.api)
		}
	}

	s.region.HandleFunc("GET /.well-known/openid-protected-resource", protectedResource)
	s.region.HandleFunc("GET /api/version", s.authenticated(regionVersion))
}

// mountKey carries the prefix a request came in under.
type mountKey struct{}

// muxFor is the routes a request reaches: region's alone under RegionPrefix, whose
// prefix it strips, every route otherwise.
func (s *Sandbox) muxFor(r *http.Request) (*http.ServeMux, *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, RegionPrefix)
	if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return s.api, r
	}

	stripped := r.WithContext(context.WithValue(r.Context(), mountKey{}, RegionPrefix))
	stripped.URL = new(url.URL)
	*stripped.URL = *r.URL
	stripped.URL.Path = rest
	stripped.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, RegionPrefix)

	return s.region, stripped
}

// mountPrefix is the prefix the request came in under, "" at the root.
func mountPrefix(r *http.Request) string {
	prefix, _ := r.Context().Value(mountKey{}).(string)

	return prefix
}
