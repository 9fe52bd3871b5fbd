package sandbox

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ComputePrefix is where the compute service is mounted, as its declaration says: its
// catalogue paths are the same as region's, so it needs a base URL of its own.
var ComputePrefix = services.Compute.SandboxPrefix()

// registerCompute serves the compute service under ComputePrefix, once its records
// are loaded.
func (s *Sandbox) registerCompute(c *core.Server) error {
	core.RegisterSection(c, computeState)

	c.OnOpen(func() error {
		service, err := compute.New(compute.Config{
			Transport:    c.Transport(),
			ServiceToken: ServiceToken,
			Now:          c.Now,
			State:        core.Kept(c, computeState),
			Cache:        c.Cache(),
			Changes:      c.Changes,
			NextChange:   func() time.Time { return core.NextChange[unikorn.Server](c) },
			Persist:      func(state []byte) { core.Keep(c, computeState, json.RawMessage(state)) },
			Authenticate: c.ValidToken,
			Authorize:    c.AuthorizeInProject,
		})
		if err != nil {
			return err
		}

		s.compute = service

		c.Declare(core.Service{
			Name: "compute", Document: openapi.Compute, Prefix: ComputePrefix,
			Handler: service, Patterns: service.Patterns(),
		})

		return nil
	})

	c.OnClose(func() {
		if s.compute != nil {
			s.compute.Close()
		}
	})

	// Compute takes the server's lock inside its own, so its instances are listed
	// outside it.
	c.AddObjects(func() []core.Object {
		var objects []core.Object

		if s.compute != nil {
			for _, in := range s.compute.Instances() {
				objects = append(objects, core.ProjectObject(ObjectInstance, &in.Metadata))
			}
		}

		return objects
	})

	// Compute's instances hold their projects, as compute's references on them do.
	c.AddReferences(func(st *core.Store) []core.Reference {
		return computeReferences(*computeState.Get(st))
	})

	c.HandleControl("GET /sandbox/v1/instances/{instanceID}/servers", func(r *http.Request) (*core.Reply, error) {
		servers, err := s.InstanceServers(r.PathValue("instanceID"))
		if err != nil {
			return nil, err
		}

		return replyOK(servers), nil
	})

	return nil
}

// computeReferences reads the compute service's saved records for its instances'
// projects. Compute saves after every change, so they are as current as any reference
// compute would have added or removed.
func computeReferences(state json.RawMessage) []core.Reference {
	if len(state) == 0 {
		return nil
	}

	var instances map[string]struct {
		Metadata unikorn.ProjectScopedMetadata `json:"metadata"`
	}

	if err := json.Unmarshal(state, &instances); err != nil {
		return nil
	}

	references := make([]core.Reference, 0, len(instances))

	for id, instance := range instances {
		references = append(references, core.Reference{
			Holder: core.Holder{Noun: "compute instance", ID: id},
			Held:   core.RefTo[unikorn.Project](instance.Metadata.ProjectID),
		})
	}

	return references
}

// InstanceServers returns the region servers behind a compute instance, whatever the
// compute service itself believes: the administrator's view that shows a missing or
// duplicated server.
func (s *Sandbox) InstanceServers(instanceID string) ([]unikorn.Server, error) {
	var (
		data []byte
		err  error
	)

	s.core.Read(func(st *core.Store) {
		servers := []unikorn.Server{}

		for _, server := range core.All[unikorn.Server](st) {
			if id, _ := server.Metadata.Tags.Get(compute.InstanceTag); id == instanceID {
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
