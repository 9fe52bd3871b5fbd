package core

import (
	"context"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Service is one of Unikorn's services as the sandbox serves it. Region and identity
// share the sandbox's root: their paths do not collide, so one base URL serves both,
// and the families of each register their routes there. Only /api/version collides,
// each service naming itself there: the root answers as the service that owns what no
// other does (identity, whose base URL it is beyond doubt: it alone serves /oauth2);
// another is also served on a base URL of its own, Prefix, where its routes alone are
// found and /api/version answers as it, so that a client that asks a service who it
// is, as region's and identity's API suites do, reaches the one it means. A service
// that serves itself (compute, reaching region and identity over HTTP alone) has a
// Handler, served under Prefix only.
type Service struct {
	Name string
	// Document is the service's OpenAPI document, which every request to it is checked
	// against: a file of internal/sandbox/openapi, or of Documents.
	Document string
	// Documents are a family's own documents (an embed.FS of its folder), for a
	// service whose document internal/sandbox/openapi does not carry; they may
	// reference that package's files (core's, region's) by name.
	Documents fs.FS
	// Prefix is the service's own base URL on the sandbox's listener; empty for none.
	Prefix string
	// Owns reports whether a route's path template at the root is the service's; nil
	// for the one service that answers what no other owns.
	Owns func(path string) bool
	// Version is what the service's /api/version answers.
	Version unikorn.ServiceVersion
	// Handler serves a service that routes its own requests, their Prefix stripped;
	// Patterns are its route templates, relative to Prefix, which stats and fault
	// rules name with the prefix ("GET /compute/api/v2/instances").
	Handler  http.Handler
	Patterns []string
}

// Contract is a document that judges some paths of a service beside the service's own
// document, which lacks them: region's volumes, which upstream publishes in no whole
// document of region's, only in one of their paths alone.
type Contract struct {
	// Document and Documents are as a Service's.
	Document  string
	Documents fs.FS
	// Judges reports whether a route's path template is the document's to judge.
	Judges func(path string) bool
}

// Judge has a family's contract judge the requests to its paths, under whatever base
// URL of their service they come in.
func (s *Server) Judge(contract Contract) {
	s.contracts = append(s.contracts, &contract)
}

// Declare adds a service. Families declare theirs when they register, a service with a
// Handler once its records are loaded (OnOpen).
func (s *Server) Declare(service Service) {
	s.services = append(s.services, &service)
}

// mountServices serves each service where it is found: a handler's routes under its
// prefix, a family service's routes again under its own prefix, the root's version.
func (s *Server) mountServices() error {
	s.api.HandleFunc("GET /.well-known/openid-protected-resource", protectedResource)
	s.routes["GET /.well-known/openid-protected-resource"] = true

	for _, service := range s.services {
		version := func(*Request) (*Reply, error) { return Uncacheable(OK(service.Version)), nil }

		switch {
		case service.Handler != nil:
			s.mountHandler(service)
		case service.Prefix != "":
			mux := http.NewServeMux()

			for pattern := range s.routes {
				if _, path, _ := strings.Cut(pattern, " "); service.Owns != nil && service.Owns(path) {
					mux.Handle(pattern, s.api)
				}
			}

			mux.HandleFunc("GET /.well-known/openid-protected-resource", protectedResource)
			mux.HandleFunc("GET /api/version", s.authenticated(version))
			s.prefixed[service.Prefix] = mux
		case service.Owns == nil:
			s.Handle("GET /api/version", version)
		}
	}

	return s.loadContracts()
}

// mountHandler serves a service that routes its own requests under its prefix, as
// ordinary API routes, so that stats and fault rules reach them.
func (s *Server) mountHandler(service *Service) {
	// The service's generated router binds its path IDs before it authenticates, as
	// region's and identity's do.
	stripped := http.StripPrefix(service.Prefix, service.Handler)
	mounted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.validatePathElements(r); err != nil {
			WriteError(w, err)

			return
		}

		stripped.ServeHTTP(w, r)
	})

	for _, pattern := range service.Patterns {
		method, path, _ := strings.Cut(pattern, " ")
		full := method + " " + service.Prefix + path
		s.routes[full] = true
		s.api.Handle(full, mounted)
	}
}

// serviceFor is the service a route serves: the one whose handler serves it under its
// prefix, the one whose base URL the request came in under, the one that owns its
// path, or the root's.
func (s *Server) serviceFor(r *http.Request, pattern string) *Service {
	_, path, _ := strings.Cut(pattern, " ")

	for _, service := range s.services {
		if service.Handler != nil && strings.HasPrefix(path, service.Prefix+"/") {
			return service
		}
	}

	if prefix := MountPrefix(r); prefix != "" {
		for _, service := range s.services {
			if service.Prefix == prefix {
				return service
			}
		}
	}

	for _, service := range s.services {
		if service.Handler == nil && service.Owns != nil && service.Owns(path) {
			return service
		}
	}

	for _, service := range s.services {
		if service.Handler == nil && service.Owns == nil {
			return service
		}
	}

	return nil
}

// mountKey carries the prefix a request came in under.
type mountKey struct{}

// muxFor is the routes a request reaches: a service's alone under its own base URL,
// whose prefix it strips, every route otherwise.
func (s *Server) muxFor(r *http.Request) (*http.ServeMux, *http.Request) {
	for prefix, mux := range s.prefixed {
		rest, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
			continue
		}

		stripped := r.WithContext(context.WithValue(r.Context(), mountKey{}, prefix))
		stripped.URL = new(url.URL)
		*stripped.URL = *r.URL
		stripped.URL.Path = rest
		stripped.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, prefix)

		return mux, stripped
	}

	return s.api, r
}

// MountPrefix is the prefix the request came in under, "" at the root.
func MountPrefix(r *http.Request) string {
	prefix, _ := r.Context().Value(mountKey{}).(string)

	return prefix
}

// documents are the services that have a document, each document once.
func (s *Server) documents() []*Service {
	var (
		names    []string
		services []*Service
	)

	for _, service := range s.services {
		if service.Document != "" && !slices.Contains(names, service.Document) {
			names = append(names, service.Document)
			services = append(services, service)
		}
	}

	for _, contract := range s.contracts {
		if !slices.Contains(names, contract.Document) {
			names = append(names, contract.Document)
			services = append(services, &Service{Document: contract.Document, Documents: contract.Documents})
		}
	}

	return services
}
