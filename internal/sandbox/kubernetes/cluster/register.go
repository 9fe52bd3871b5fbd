package cluster

import (
	"embed"
	"encoding/json"
	"net/http"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is the Kubernetes service as the sandbox serves it, under Prefix.
var Family = core.Family{Name: "kubernetes", Register: register}

// document is the service's OpenAPI document (v1.16.3, as upstream publishes it),
// which every request under Prefix is checked against before a handler sees it; it
// references core's and region's, which the sandbox carries.
const document = "kubernetes-v1.16.3.spec.yaml"

//go:embed kubernetes-v1.16.3.spec.yaml
var documents embed.FS

// state is the service's records in the sandbox's state file.
var state = &core.Section[json.RawMessage]{Name: "kubernetes"}

// The kinds of the service's objects in the sandbox's records.
const (
	ObjectCluster = "kubernetescluster"
	ObjectManager = "clustermanager"
)

func register(c *core.Server) error {
	core.RegisterSection(c, state)

	var service *Service

	c.OnOpen(func() error {
		var err error

		service, err = New(Config{
			Transport: c.Transport(), ServiceToken: fixture.KubernetesServiceToken, Now: c.Now,
			Delay: c.ProvisionDelay, DeleteDelay: c.DeprovisionDelay,
			Authenticate: c.ValidToken, Authorize: func(token, organizationID, projectID, endpoint, operation string) error {
				return authorize(c, token, organizationID, projectID, endpoint, operation)
			},
			Project: func(organizationID, projectID string) (exists, deleting bool) {
				c.Read(func(st *core.Store) {
					project, ok := core.FindProject(st, organizationID, projectID)
					exists, deleting = ok, ok && project.Metadata.DeletionTime != nil
				})

				return exists, deleting
			},
			State:   core.Kept(c, state),
			Persist: func(records json.RawMessage) { core.Keep(c, state, records) },
			Cache:   c.Cache(),
			Options: DefaultOptions(),
		})
		if err != nil {
			return err
		}

		c.Declare(core.Service{
			Name: "kubernetes", Document: document, Documents: documents, Prefix: Prefix,
			Handler: service, Patterns: service.Patterns(),
		})

		return nil
	})

	c.OnClose(func() {
		if service != nil {
			service.Close()
		}
	})

	// The service takes the server's lock inside its own, so its objects are listed
	// outside it.
	c.AddObjects(func() []core.Object {
		var objects []core.Object

		if service != nil {
			for _, cluster := range service.Clusters() {
				objects = append(objects, core.ProjectObject(ObjectCluster, &cluster.Metadata))
			}

			for _, manager := range service.Managers() {
				objects = append(objects, core.ProjectObject(ObjectManager, &manager.Metadata))
			}
		}

		return objects
	})

	// A project's clusters hold it, as its namespace holds them: identity tears them
	// down before the project is gone. Read from the saved records, which the service
	// saves after every change, without its lock.
	c.AddReferences(func(st *core.Store) []core.Reference {
		saved := newRecords()
		if data := *state.Get(st); len(data) > 0 && json.Unmarshal(data, saved) != nil {
			return nil
		}

		references := make([]core.Reference, 0, len(saved.Clusters))

		for id, cluster := range saved.Clusters {
			references = append(references, core.Reference{
				Holder: core.Holder{Noun: "Kubernetes cluster", ID: id},
				Held:   core.RefTo[unikorn.Project](cluster.Metadata.ProjectID),
			})
		}

		return references
	})

	c.HandleControl("GET /sandbox/v1/kubernetesclusters", func(*http.Request) (*core.Reply, error) {
		if service == nil {
			return core.OK([]unikorn.KubernetesCluster{}), nil
		}

		return core.OK(service.Clusters()), nil
	})

	return nil
}

// authorize is what identity's ACL for the token allows, in the project or at the
// organization's scope when projectID is empty, as rbac.AllowProjectScope and
// AllowOrganizationScope ask it. The service is newer than roles: it asks every
// caller for the exact permission, the sandbox's legacy fixture users too, as
// identity's own projects and groups do.
func authorize(c *core.Server, token, organizationID, projectID, endpoint, operation string) error {
	var err error

	c.Read(func(st *core.Store) {
		var caller *core.Caller

		if caller, err = core.Resolve(c, st, token, c.Now()); err != nil {
			err = &core.Error{Status: http.StatusUnauthorized, Code: unikorn.ErrorAccessDenied, Description: err.Error()}

			return
		}

		if projectID == "" {
			err = core.Forbid(caller.ACL.AllowOrganization(organizationID, endpoint, operation))
		} else {
			err = core.Forbid(caller.ACL.AllowProject(organizationID, projectID, endpoint, operation))
		}
	})

	return err
}
