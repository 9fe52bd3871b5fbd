package sandbox

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// projectRecord is a project and what its controller will do next.
type projectRecord struct {
	Project   unikorn.Project `json:"project"`
	Lifecycle schedule        `json:"lifecycle,omitempty"`
	// References are what other services named when they said they hold the project
	// (references.go): a region outside the sandbox, say.
	References []string `json:"references,omitempty"`
}

// findProject finds a project of the organization, deleting or not.
func (w *world) findProject(organizationID, projectID string) *projectRecord {
	record, ok := w.Projects[projectID]
	if !ok || record.Project.Metadata.OrganizationID != organizationID {
		return nil
	}

	return record
}

// projectWriteRequired is the required part of identity `projectWrite`.
var projectWriteRequired = requiredWith("spec", "spec.groupIDs")

// listProjects lists the organization's projects the caller may read. Identity asks
// nothing first: it lists, then drops what the caller may not read.
func (s *Sandbox) listProjects(req *request) (*reply, error) {
	organizationID := req.PathValue("organizationID")

	if req.caller.legacy {
		if err := requireOrganization(req.caller, organizationID, rbacProjects, opRead); err != nil {
			return nil, err
		}
	}

	result := []unikorn.Project{}

	for _, record := range s.world.projectsByName(organizationID) {
		if showsInvisible(req.Request) || req.caller.canUse(organizationID, record.Project.Metadata.ID) {
			result = append(result, record.Project)
		}
	}

	return replyOK(result), nil
}

// projectsByName are the organization's projects in identity's list order, by
// Kubernetes name, which is the ID.
func (w *world) projectsByName(organizationID string) []*projectRecord {
	var records []*projectRecord

	for _, record := range byID(w.Projects) {
		if record.Project.Metadata.OrganizationID == organizationID {
			records = append(records, record)
		}
	}

	return records
}

func (s *Sandbox) getProject(req *request) (*reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := requireProject(s.world, req.caller, organizationID, projectID, rbacProjects, opRead); err != nil {
		return nil, err
	}

	return replyOK(s.world.findProject(organizationID, projectID).Project), nil
}

// decodeProject reads a project write and checks that its groups exist in the
// organization, with identity's refusal.
func (s *Sandbox) decodeProject(req *request, organizationID string) (unikorn.ProjectWrite, error) {
	var body unikorn.ProjectWrite
	if err := decodeBody(req.Request, &body, projectWriteRequired...); err != nil {
		return body, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return body, err
	}

	for _, groupID := range body.Spec.GroupIDs {
		if group, ok := s.world.Groups[groupID]; !ok || group.Metadata.OrganizationID != organizationID {
			return body, errBadRequest("group ID %s does not exist", groupID)
		}
	}

	return body, nil
}

// createProject makes a project and answers 202 with it pending: identity's
// controller provisions it afterwards.
func (s *Sandbox) createProject(req *request) (*reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.caller.acl.AllowOrganization(organizationID, rbacProjects, opCreate)); err != nil {
		return nil, err
	}

	body, err := s.decodeProject(req, organizationID)
	if err != nil {
		return nil, err
	}

	record := &projectRecord{
		Project: unikorn.Project{
			Metadata: unikorn.OrganizationScopedMetadata{
				ReadMetadata:   newReadMetadata(newResourceID(), body.Metadata, req.now),
				OrganizationID: organizationID,
			},
			Spec: unikorn.ProjectSpec{GroupIDs: nonNil(body.Spec.GroupIDs)},
		},
		Lifecycle: provisionSchedule(req.now, s.provisionDelay),
	}

	s.world.Projects[record.Project.Metadata.ID] = record

	return replyAccepted(record.Project), nil
}

// updateProject replaces a project's metadata and groups and answers with no body.
// Identity patches under an optimistic lock: while its controller is still writing
// the project's status (provisioning, or deleting), the patch conflicts (409).
func (s *Sandbox) updateProject(req *request) (*reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := forbidden(req.caller.acl.AllowProject(organizationID, projectID, rbacProjects, opUpdate)); err != nil {
		return nil, err
	}

	record := s.world.findProject(organizationID, projectID)
	if record == nil {
		return nil, errNotFound()
	}

	body, err := s.decodeProject(req, organizationID)
	if err != nil {
		return nil, err
	}

	if len(record.Lifecycle) > 0 || record.Project.Metadata.DeletionTime != nil {
		return nil, errConflictWith("the object has been modified; please apply your changes to the latest version and try again")
	}

	rewriteMetadata(&record.Project.Metadata.ReadMetadata, body.Metadata, req.now)
	record.Project.Spec.GroupIDs = nonNil(body.Spec.GroupIDs)
	record.Lifecycle = reprovisionSchedule(req.now, s.provisionDelay)

	return replyOK(nil), nil
}

// deleteProject starts a project's deletion: 202, then deprovisioning until the
// controller has swept it and no other service references it any more.
func (s *Sandbox) deleteProject(req *request) (*reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := forbidden(req.caller.acl.AllowProject(organizationID, projectID, rbacProjects, opDelete)); err != nil {
		return nil, err
	}

	record := s.world.findProject(organizationID, projectID)
	if record == nil {
		return nil, errNotFound()
	}

	markDeleting(&record.Project.Metadata.ReadMetadata, &record.Lifecycle, req.now, s.deprovisionDelay)

	return replyAccepted(nil), nil
}

// advanceProjects applies projects' due transitions. A deleted project goes once its
// deprovisioning time has passed and nothing references it: region's objects in it
// and the compute service's instances hold it, as their services' references do.
func (w *world) advanceProjects(now time.Time) bool {
	changed := false

	for id, record := range w.Projects {
		for _, to := range record.Lifecycle.due(now) {
			changed = true

			if to != toGone {
				applyProvisioning(&record.Project.Metadata.ReadMetadata, to)
			}
		}

		if record.Project.Metadata.DeletionTime != nil && len(record.Lifecycle) == 0 && len(w.ProjectReferences(id)) == 0 {
			delete(w.Projects, id)

			changed = true
		}
	}

	return changed
}

// ProjectReferences names what holds a project's deletion, sorted.
func (w *world) ProjectReferences(projectID string) []string {
	var holders []string

	for _, record := range w.Networks {
		if record.Network.Metadata.ProjectID == projectID {
			holders = append(holders, fmt.Sprintf("region network %s", record.Network.Metadata.ID))
		}
	}

	for _, record := range w.SecurityGroups {
		if record.SecurityGroup.Metadata.ProjectID == projectID {
			holders = append(holders, fmt.Sprintf("region security group %s", record.SecurityGroup.Metadata.ID))
		}
	}

	for _, ca := range w.SSHCertificateAuthorities {
		if ca.Metadata.ProjectID == projectID {
			holders = append(holders, fmt.Sprintf("region SSH certificate authority %s", ca.Metadata.ID))
		}
	}

	for _, record := range w.Servers {
		if record.Server.Metadata.ProjectID == projectID {
			holders = append(holders, fmt.Sprintf("region server %s", record.Server.Metadata.ID))
		}
	}

	for _, record := range w.LoadBalancers {
		if record.LoadBalancer.Metadata.ProjectID == projectID {
			holders = append(holders, fmt.Sprintf("region load balancer %s", record.LoadBalancer.Metadata.ID))
		}
	}

	for _, record := range w.FileStorage {
		if record.Metadata.ProjectID == projectID {
			holders = append(holders, fmt.Sprintf("region file storage %s", record.Metadata.ID))
		}
	}

	for _, id := range w.computeInstancesIn(projectID) {
		holders = append(holders, fmt.Sprintf("compute instance %s", id))
	}

	if record, ok := w.Projects[projectID]; ok {
		for _, reference := range record.References {
			holders = append(holders, "reference "+reference)
		}
	}

	slices.Sort(holders)

	return holders
}

// computeInstancesIn reads the compute service's saved records for its instances in
// the project. Compute saves after every change, so they are as current as any
// reference compute would have added or removed.
func (w *world) computeInstancesIn(projectID string) []string {
	if len(w.Compute) == 0 {
		return nil
	}

	var instances map[string]struct {
		Metadata unikorn.ProjectScopedMetadata `json:"metadata"`
	}

	if err := json.Unmarshal(w.Compute, &instances); err != nil {
		return nil
	}

	var ids []string

	for id, instance := range instances {
		if instance.Metadata.ProjectID == projectID {
			ids = append(ids, id)
		}
	}

	return ids
}

// addIdentityFixtures adds the fixture organizations, users, projects and the
// administrators groups.
func (w *world) addIdentityFixtures() {
	w.addOrganizations()
	w.addUserFixtures()

	for _, p := range []struct{ organization, id, name string }{
		{OrganizationID, ProjectID, "sandbox-project"},
		{OrganizationID, OtherProjectID, "other-project"},
		{ForeignOrganizationID, ForeignProjectID, "foreign-project"},
	} {
		w.Projects[p.id] = &projectRecord{Project: fixtureProject(p.organization, p.id, p.name)}
	}

	for _, g := range []struct{ organization, id, user string }{
		{OrganizationID, AdministratorsGroupID, AdminUserID},
		{EmptyOrganizationID, EmptyAdministratorsGroupID, EmptyAdminUserID},
	} {
		spec := unikorn.GroupSpec{RoleIDs: []string{identity.AdministratorRoleID}, UserIDs: []string{g.user}, ServiceAccountIDs: []string{}}
		// Subjects as identity derives them from user IDs.
		if err := w.groupMembers(&spec, g.organization, ""); err != nil {
			panic("fixture group: " + err.Error())
		}

		w.Groups[g.id] = &unikorn.Group{
			Metadata: unikorn.OrganizationScopedMetadata{
				ReadMetadata:   groupMetadata(newReadMetadata(g.id, unikorn.WriteMetadata{Name: "administrators"}, fixtureTime)),
				OrganizationID: g.organization,
			},
			Spec: spec,
		}
	}
}

// addUserFixtures adds the fixture users, active, and their organization users.
func (w *world) addUserFixtures() {
	for _, fixture := range fixtureUsers {
		w.Users[fixture.id] = &userRecord{ID: fixture.id, Subject: fixture.subject, State: userActive, CreationTime: fixtureTime}

		for organizationID, id := range fixture.members {
			w.addUser(organizationID, id, fixture.subject, userActive, nil, fixtureTime)
		}
	}
}

func nonNil(ids []string) []string {
	if ids == nil {
		return []string{}
	}

	return ids
}
