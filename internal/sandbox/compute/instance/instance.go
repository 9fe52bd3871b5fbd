// Package instance is Unikorn's compute service (pkg/server/handler/instance): the
// public instance API that every project user may call, backed by region's hidden
// servers and identity's allocations, which it reaches the way the real service does,
// over their HTTP APIs with its own service account. It is a service that serves
// itself, under its own prefix: of the sandbox it knows only what core offers such a
// service (a transport into the sandbox's own handler, so that RBAC, faults and read
// lag apply to compute's calls exactly as to anyone's; the read lag's cache for its own
// records; the clock; identity's authentication and ACL; a section of the state file).
package instance

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is compute's instances, as a service of their own.
var Family = core.Family{Name: "instance", Register: register}

// Prefix is where the compute service is mounted, as its declaration says: its
// catalogue paths are the same as region's, so it needs a base URL of its own.
var Prefix = services.Compute.SandboxPrefix()

// ObjectKind is an instance's kind among the objects the sandbox holds.
const ObjectKind = "instance"

// state is what compute keeps of its records in the state file: its own encoding.
var state = &core.Section[json.RawMessage]{Name: "compute"}

var service core.Local[Service]

// register serves the compute service under Prefix, once its records are loaded.
func register(s *core.Server) error {
	core.RegisterSection(s, state)

	s.OnOpen(func() error {
		svc, err := New(Config{
			Transport:    s.Transport(),
			ServiceToken: fixture.ServiceToken,
			Now:          s.Now,
			State:        core.Kept(s, state),
			Cache:        s.Cache(),
			Changes:      s.Changes,
			// Region's servers are what compute's controller reads and its watch follows.
			NextChange:   func() time.Time { return core.NextChange[unikorn.Server](s) },
			Persist:      func(saved []byte) { core.Keep(s, state, json.RawMessage(saved)) },
			Authenticate: s.ValidToken,
			Authorize:    s.AuthorizeInProject,
		})
		if err != nil {
			return err
		}

		service.Set(s, svc)

		s.Declare(core.Service{
			Name: "compute", Document: openapi.Compute, Prefix: Prefix,
			Handler: svc, Patterns: svc.Patterns(),
		})

		return nil
	})

	// Compute's passes save through the server's lock, so they stop first.
	s.OnClose(func() { service.Get(s).Close() })

	// Compute takes the server's lock inside its own, so its instances are listed
	// outside it.
	s.AddObjects(func() []core.Object {
		var objects []core.Object

		for _, in := range service.Get(s).Instances() {
			objects = append(objects, core.ProjectObject(ObjectKind, &in.Metadata))
		}

		return objects
	})

	// Compute's instances hold their projects, as compute's references on them do.
	s.AddReferences(func(st *core.Store) []core.Reference {
		return references(*state.Get(st))
	})

	s.HandleControl("GET /sandbox/v1/instances/{instanceID}/servers", func(r *http.Request) (*core.Reply, error) {
		servers, err := Servers(s, r.PathValue("instanceID"))
		if err != nil {
			return nil, err
		}

		return core.OK(servers), nil
	})

	return nil
}

// references reads the compute service's saved records for its instances' projects.
// Compute saves after every change, so they are as current as any reference compute
// would have added or removed.
func references(saved json.RawMessage) []core.Reference {
	if len(saved) == 0 {
		return nil
	}

	var instances map[string]struct {
		Metadata unikorn.ProjectScopedMetadata `json:"metadata"`
	}

	if err := json.Unmarshal(saved, &instances); err != nil {
		return nil
	}

	refs := make([]core.Reference, 0, len(instances))

	for id, in := range instances {
		refs = append(refs, core.Reference{
			Holder: core.Holder{Noun: "compute instance", ID: id},
			Held:   core.RefTo[unikorn.Project](in.Metadata.ProjectID),
		})
	}

	return refs
}

// Servers returns the region servers behind a compute instance, whatever the compute
// service itself believes: the administrator's view that shows a missing or
// duplicated server.
func Servers(s *core.Server, instanceID string) ([]unikorn.Server, error) {
	var (
		data []byte
		err  error
	)

	s.Read(func(st *core.Store) {
		servers := []unikorn.Server{}

		for _, server := range core.All[unikorn.Server](st) {
			if id, _ := server.Metadata.Tags.Get(InstanceTag); id == instanceID {
				servers = append(servers, *server)
			}
		}

		slices.SortFunc(servers, func(a, b unikorn.Server) int { return strings.Compare(a.Metadata.ID, b.Metadata.ID) })

		// A deep copy, so that the caller holds nothing the store changes later.
		data, err = json.Marshal(servers)
	})

	if err != nil {
		return nil, err
	}

	var out []unikorn.Server

	return out, json.Unmarshal(data, &out)
}
