// Package projects is identity's projects (pkg/handler/projects): an organization's
// projects, asynchronous as identity's controller makes them, naming the groups whose
// project-scoped roles apply in them. Every service's objects in a project put a
// reference on it: a deleted project goes once its deprovisioning is done and nothing
// holds it, and nothing new may be made in it meanwhile (core.RequireProject). A
// service outside the sandbox (a real region) puts its references through identity's
// references API. Other families read projects as unikorn.Project.
package projects

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's projects.
var Family = core.Family{Name: "projects", Register: register}

const (
	// ObjectKind is a project's kind among the objects the sandbox holds.
	ObjectKind = "project"

	rbacProjects = "identity:projects"
)

// record is a project and what its controller will do next.
type record struct {
	Project   unikorn.Project `json:"project"`
	Lifecycle core.Schedule   `json:"lifecycle,omitempty"`
	// References are what services named when they said they hold the project
	// (references.go), as identity keeps them as the project's finalizers.
	References []string `json:"references,omitempty"`
}

var projects = &core.Kind[record]{
	Name: "projects",
	Object: func(_ *core.Store, r *record) core.Object {
		return core.OrganizationObject(ObjectKind, &r.Project.Metadata)
	},
}

// handlers serve identity's projects API.
type handlers struct {
	s *core.Server
}

func register(s *core.Server) error {
	core.Register(s, projects)
	core.Expose(s, projects, core.View[record, unikorn.Project]{Show: func(r *record) *unikorn.Project { return &r.Project }})

	h := &handlers{s: s}
	s.Handle("GET /api/v1/organizations/{organizationID}/projects", list)
	s.Handle("POST /api/v1/organizations/{organizationID}/projects", h.create)
	s.Handle("GET /api/v1/organizations/{organizationID}/projects/{projectID}", get)
	s.Handle("PUT /api/v1/organizations/{organizationID}/projects/{projectID}", h.update)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/projects/{projectID}", h.remove)
	s.Handle("PUT /api/v1/organizations/{organizationID}/projects/{projectID}/references/{reference}", addReference)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/references/{reference}", removeReference)
	s.AddReferences(references)

	s.Fixture(fixtures)
	// Version 1 kept no projects: they were a fixed catalogue then, so they are the
	// fixtures.
	s.Migrate(1, fixtures)

	// Last: a project whose last holder went in this pass goes with it.
	s.AdvanceLast(advance)

	return nil
}

// fixtures are the fixture projects: two of the fixture organization, one of the
// foreign one.
func fixtures(st *core.Store) error {
	for _, p := range []struct{ organization, id, name string }{
		{fixture.OrganizationID, fixture.ProjectID, "sandbox-project"},
		{fixture.OrganizationID, fixture.OtherProjectID, "other-project"},
		{fixture.ForeignOrganizationID, fixture.ForeignProjectID, "foreign-project"},
	} {
		projects.Put(st, p.id, &record{Project: unikorn.Project{
			Metadata: unikorn.OrganizationScopedMetadata{ReadMetadata: core.ProvisionedMetadata(p.id, p.name), OrganizationID: p.organization},
			Spec:     unikorn.ProjectSpec{GroupIDs: []string{}},
		}})
	}

	return nil
}

// find finds a project of the organization, deleting or not.
func find(st *core.Store, organizationID, projectID string) (*record, bool) {
	r, ok := projects.Get(st, projectID)
	if !ok || r.Project.Metadata.OrganizationID != organizationID {
		return nil, false
	}

	return r, true
}

// writeRequired is the required part of identity `projectWrite`.
var writeRequired = core.RequiredWith("spec", "spec.groupIDs")

// list lists the organization's projects the caller may read. Identity asks
// nothing first: it lists, then drops what the caller may not read.
func list(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if req.Caller.Legacy {
		if err := core.RequireOrganization(req.Caller, organizationID, rbacProjects, core.OpRead); err != nil {
			return nil, err
		}
	}

	result := []unikorn.Project{}

	// In identity's list order, by Kubernetes name, which is the ID.
	for _, r := range projects.Sorted(req.Store) {
		if r.Project.Metadata.OrganizationID == organizationID && (core.ShowsInvisible(req.Request) || req.Caller.CanUse(organizationID, r.Project.Metadata.ID)) {
			result = append(result, r.Project)
		}
	}

	return core.OK(result), nil
}

func get(req *core.Request) (*core.Reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.RequireProject(req.Store, req.Caller, organizationID, projectID, rbacProjects, core.OpRead); err != nil {
		return nil, err
	}

	project, _ := core.FindProject(req.Store, organizationID, projectID)

	return core.OK(project), nil
}

// decode reads a project write and checks that its groups exist in the
// organization, with identity's refusal.
func decode(req *core.Request, organizationID string) (unikorn.ProjectWrite, error) {
	var body unikorn.ProjectWrite
	if err := core.DecodeBody(req.Request, &body, writeRequired...); err != nil {
		return body, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return body, err
	}

	for _, groupID := range body.Spec.GroupIDs {
		if group, ok := core.Get[unikorn.Group](req.Store, groupID); !ok || group.Metadata.OrganizationID != organizationID {
			return body, core.BadRequest("group ID %s does not exist", groupID)
		}
	}

	return body, nil
}

// create makes a project and answers 202 with it pending: identity's
// controller provisions it afterwards.
func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacProjects, core.OpCreate)); err != nil {
		return nil, err
	}

	body, err := decode(req, organizationID)
	if err != nil {
		return nil, err
	}

	record := &record{
		Project: unikorn.Project{
			Metadata: unikorn.OrganizationScopedMetadata{
				ReadMetadata:   core.NewReadMetadata(core.NewResourceID(), body.Metadata, req.Now),
				OrganizationID: organizationID,
			},
			Spec: unikorn.ProjectSpec{GroupIDs: core.NonNil(body.Spec.GroupIDs)},
		},
		Lifecycle: core.ProvisionSchedule(req.Now, h.s.ProvisionDelay()),
	}

	projects.Put(req.Store, record.Project.Metadata.ID, record)

	return core.Accepted(record.Project), nil
}

// update replaces a project's metadata and groups and answers with no body.
// Identity patches under an optimistic lock: while its controller is still writing
// the project's status (provisioning, or deleting), the patch conflicts (409).
func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.Forbid(req.Caller.ACL.AllowProject(organizationID, projectID, rbacProjects, core.OpUpdate)); err != nil {
		return nil, err
	}

	record, ok := find(req.Store, organizationID, projectID)
	if !ok {
		return nil, core.NotFound()
	}

	body, err := decode(req, organizationID)
	if err != nil {
		return nil, err
	}

	if len(record.Lifecycle) > 0 || record.Project.Metadata.DeletionTime != nil {
		return nil, core.ConflictWith("the object has been modified; please apply your changes to the latest version and try again")
	}

	core.RewriteMetadata(&record.Project.Metadata.ReadMetadata, body.Metadata, req.Now)
	record.Project.Spec.GroupIDs = core.NonNil(body.Spec.GroupIDs)
	record.Lifecycle = core.ReprovisionSchedule(req.Now, h.s.ProvisionDelay())

	return core.OK(nil), nil
}

// remove starts a project's deletion: 202, then deprovisioning until the
// controller has swept it and no other service references it any more.
func (h *handlers) remove(req *core.Request) (*core.Reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := core.Forbid(req.Caller.ACL.AllowProject(organizationID, projectID, rbacProjects, core.OpDelete)); err != nil {
		return nil, err
	}

	record, ok := find(req.Store, organizationID, projectID)
	if !ok {
		return nil, core.NotFound()
	}

	core.MarkDeleting(&record.Project.Metadata.ReadMetadata, &record.Lifecycle, req.Now, h.s.DeprovisionDelay())

	return core.Accepted(nil), nil
}

// advance applies projects' due transitions. A deleted project goes once its
// deprovisioning time has passed and nothing references it: region's objects in it
// and the compute service's instances hold it, as their services' references do.
func advance(st *core.Store, now time.Time) bool {
	changed := false

	records := projects.Records(st)

	for id, record := range records {
		for _, to := range record.Lifecycle.Due(now) {
			changed = true

			if to != core.ToGone {
				core.ApplyProvisioning(&record.Project.Metadata.ReadMetadata, to)
			}
		}

		if record.Project.Metadata.DeletionTime != nil && len(record.Lifecycle) == 0 && !core.Held(st, core.RefTo[unikorn.Project](id)) {
			delete(records, id)

			changed = true
		}
	}

	return changed
}
