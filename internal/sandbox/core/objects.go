package core

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Object is one thing the sandbox holds, as it is now rather than as a lagging read
// shows it: what a test reads to learn what a configuration left behind.
type Object struct {
	Kind           string `json:"kind"`
	ID             string `json:"id"`
	Name           string `json:"name"`
	OrganizationID string `json:"organizationId,omitempty"`
	ProjectID      string `json:"projectId,omitempty"`
	// Fixture marks what every fresh start holds, so that "nothing left behind" is
	// every object that is not one.
	Fixture bool `json:"fixture"`
}

// ProjectObject describes a project's object; fixtures are the objects made at the
// fixtures' creation time.
func ProjectObject(kind string, metadata *unikorn.ProjectScopedMetadata) Object {
	return Object{
		Kind:           kind,
		ID:             metadata.ID,
		Name:           metadata.Name,
		OrganizationID: metadata.OrganizationID,
		ProjectID:      metadata.ProjectID,
		Fixture:        metadata.CreationTime.Equal(FixtureTime),
	}
}

// OrganizationObject describes an organization's object, such as identity's.
func OrganizationObject(kind string, metadata *unikorn.OrganizationScopedMetadata) Object {
	return Object{
		Kind:           kind,
		ID:             metadata.ID,
		Name:           metadata.Name,
		OrganizationID: metadata.OrganizationID,
		Fixture:        metadata.CreationTime.Equal(FixtureTime),
	}
}

// AddObjects adds a source of objects beyond the kinds' own: a service that keeps its
// records apart. It is asked without the server's lock, before the kinds are.
func (s *Server) AddObjects(source func() []Object) {
	s.objectSources = append(s.objectSources, source)
}

// Objects returns everything users can make that exists now, fixtures included,
// sorted by kind and ID: every kind's records whose kind says how they show
// (Kind.Object), and every source's. Objects being deleted are listed until they are
// gone.
func (s *Server) Objects() []Object {
	// A service with records of its own takes the server's lock inside its own, so it
	// is asked first.
	var objects []Object
	for _, source := range s.objectSources {
		objects = append(objects, source()...)
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	for _, kind := range s.reg.kinds {
		if kind.object == nil {
			continue
		}

		for iterator := s.store.records[kind.name].MapRange(); iterator.Next(); {
			objects = append(objects, kind.object(s.store, iterator.Value().Interface()))
		}
	}

	slices.SortFunc(objects, func(a, b Object) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})

	return objects
}

// registerObjectRoutes serves Objects; "?fixtures=false" leaves the fixtures out, so
// that a sandbox holding nothing a test made answers an empty list.
func (s *Server) registerObjectRoutes() {
	s.HandleControl("GET /sandbox/v1/objects", func(r *http.Request) (*Reply, error) {
		var withFixtures bool

		switch r.URL.Query().Get("fixtures") {
		case "", "true":
			withFixtures = true
		case "false":
		default:
			return nil, BadRequest("fixtures is %q: use true or false", r.URL.Query().Get("fixtures"))
		}

		objects := []Object{}

		for _, object := range s.Objects() {
			if withFixtures || !object.Fixture {
				objects = append(objects, object)
			}
		}

		return OK(objects), nil
	})
}
