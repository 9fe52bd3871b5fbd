// Package groups is identity's groups (pkg/handler/groups): an organization's groups,
// which hold roles and name their users (by organization user ID or by subject, each
// derived from the other) and their service accounts. Projects name the groups whose
// project-scoped roles apply in them. Other families read groups as unikorn.Group, and
// users and service accounts rewrite their own membership of them.
package groups

import (
	"errors"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's groups.
var Family = core.Family{Name: "groups", Register: register}

const (
	// ObjectKind is a group's kind among the objects the sandbox holds.
	ObjectKind = "group"

	rbacGroups = "identity:groups"
)

var groups = &core.Kind[unikorn.Group]{
	Name: "groups",
	Object: func(_ *core.Store, g *unikorn.Group) core.Object {
		return core.OrganizationObject(ObjectKind, &g.Metadata)
	},
}

func register(s *core.Server) error {
	core.Register(s, groups)
	core.Expose(s, groups, core.View[unikorn.Group, unikorn.Group]{Show: func(g *unikorn.Group) *unikorn.Group { return g }})

	s.Handle("GET /api/v1/organizations/{organizationID}/groups", list)
	s.Handle("POST /api/v1/organizations/{organizationID}/groups", create)
	s.Handle("GET /api/v1/organizations/{organizationID}/groups/{groupid}", get)
	s.Handle("PUT /api/v1/organizations/{organizationID}/groups/{groupid}", update)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/groups/{groupid}", remove)

	s.Fixture(fixtures)
	// Version 1 kept no groups; version 2 named the fixture users by their IDs alone,
	// the empty organization's administrator by its user ID in the fixture one.
	s.Migrate(1, fixtures)
	s.Migrate(2, nameMembers)

	return nil
}

// fixtures are the administrators groups of the fixture and the empty organization,
// through which the fixture administrator holds the administrator role.
func fixtures(st *core.Store) error {
	for _, g := range []struct{ organization, id, user string }{
		{fixture.OrganizationID, fixture.AdministratorsGroupID, fixture.AdminUserID},
		{fixture.EmptyOrganizationID, fixture.EmptyAdministratorsGroupID, fixture.EmptyAdminUserID},
	} {
		spec := unikorn.GroupSpec{RoleIDs: []string{fixture.AdministratorRoleID}, UserIDs: []string{g.user}, ServiceAccountIDs: []string{}}
		// Subjects as identity derives them from user IDs.
		if err := members(st, &spec, g.organization, ""); err != nil {
			return errors.New("fixture group: " + err.Error())
		}

		groups.Put(st, g.id, &unikorn.Group{
			Metadata: unikorn.OrganizationScopedMetadata{
				ReadMetadata:   core.Settled(core.NewReadMetadata(g.id, unikorn.WriteMetadata{Name: "administrators"}, core.FixtureTime)),
				OrganizationID: g.organization,
			},
			Spec: spec,
		})
	}

	return nil
}

// nameMembers names every group's members again as identity derives them from user
// IDs, in a store saved before users were kept.
func nameMembers(st *core.Store) error {
	for _, group := range groups.Records(st) {
		if group.Metadata.OrganizationID == fixture.EmptyOrganizationID {
			for i, id := range group.Spec.UserIDs {
				if id == fixture.AdminUserID {
					group.Spec.UserIDs[i] = fixture.EmptyAdminUserID
				}
			}
		}

		if len(group.Spec.UserIDs) > 0 {
			group.Spec.Subjects = nil
			if err := members(st, &group.Spec, group.Metadata.OrganizationID, ""); err != nil {
				group.Spec.UserIDs, group.Spec.Subjects = nil, nil
			}
		}
	}

	return nil
}

// globalUser is the ID of the global user of subject.
func globalUser(st *core.Store, subject string) (string, bool) {
	for id, user := range core.All[unikorn.Subject](st) {
		if user.ID == subject {
			return id, true
		}
	}

	return "", false
}

// organizationUser is the ID of the organization's user of subject.
func organizationUser(st *core.Store, organizationID, subject string) (string, bool) {
	for id, user := range core.All[unikorn.User](st) {
		if user.Metadata.OrganizationID == organizationID && user.Spec.Subject == subject {
			return id, true
		}
	}

	return "", false
}

// Dedupe keeps the first of each ID in order, as identity does with the role, user
// and service account IDs of a group.
func Dedupe(ids []string) []string {
	if ids == nil {
		return nil
	}

	out := make([]string, 0, len(ids))

	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}

	return out
}

// ErrUsersAndSubjects is identity's refusal of a group that names its users both ways.
var ErrUsersAndSubjects = errors.New("cannot provide both subjects and userIDs")

// CheckMembers refuses a group write that gives both user IDs and subjects.
func CheckMembers(userIDs []string, subjects int) error {
	if len(userIDs) > 0 && subjects > 0 {
		return ErrUsersAndSubjects
	}

	return nil
}

// WithoutGroup is a project's group list once the group is deleted: identity takes a
// deleted group out of every project that names it.
func WithoutGroup(groupIDs []string, groupID string) (ids []string, changed bool) {
	if !slices.Contains(groupIDs, groupID) {
		return groupIDs, false
	}

	return slices.DeleteFunc(slices.Clone(groupIDs), func(id string) bool { return id == groupID }), true
}

// writeRequired is the required part of identity `groupWrite`.
var writeRequired = core.RequiredWith("spec", "spec.roleIDs", "spec.serviceAccountIDs", "spec.subjects[].id", "spec.subjects[].issuer")

// issuerOut and issuerIn translate a subject's issuer between the wire, where
// identity's own is its URL, and the records.
func issuerOut(subject unikorn.Subject, url string) unikorn.Subject {
	if subject.Issuer == fixture.LocalIssuer {
		subject.Issuer = url
	}

	return subject
}

func issuerIn(subject unikorn.Subject, url string) unikorn.Subject {
	if subject.Issuer == url {
		subject.Issuer = fixture.LocalIssuer
	}

	return subject
}

// groupRead is identity's `groupRead` as its handler writes it: convert in
// pkg/handler/groups starts from empty roleIDs, userIDs, subjects and
// serviceAccountIDs, so a group without members reads with empty lists, never
// without the fields.
type groupRead struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	Spec     groupReadSpec                      `json:"spec"`
}

type groupReadSpec struct {
	RoleIDs           []string          `json:"roleIDs"`
	UserIDs           []string          `json:"userIDs"`
	Subjects          []unikorn.Subject `json:"subjects"`
	ServiceAccountIDs []string          `json:"serviceAccountIDs"`
}

// renderGroup reads a group for a caller that reached identity at issuer.
func renderGroup(group *unikorn.Group, issuer string) groupRead {
	subjects := make([]unikorn.Subject, 0, len(group.Spec.Subjects))
	for _, subject := range group.Spec.Subjects {
		subjects = append(subjects, issuerOut(subject, issuer))
	}

	return groupRead{
		Metadata: group.Metadata,
		Spec: groupReadSpec{
			RoleIDs:           core.NonNil(group.Spec.RoleIDs),
			UserIDs:           core.NonNil(group.Spec.UserIDs),
			Subjects:          subjects,
			ServiceAccountIDs: core.NonNil(group.Spec.ServiceAccountIDs),
		},
	}
}

func list(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacGroups, core.OpRead)); err != nil {
		return nil, err
	}

	result := []groupRead{}
	for _, group := range groups.Sorted(req.Store) {
		if group.Metadata.OrganizationID == organizationID {
			result = append(result, renderGroup(group, core.BaseURL(req.Request)))
		}
	}

	return core.OK(result), nil
}

// find finds a group of the organization in the path, once the caller may act on groups.
func find(req *core.Request, operation string) (*unikorn.Group, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacGroups, operation)); err != nil {
		return nil, err
	}

	group, ok := groups.Get(req.Store, req.PathValue("groupid"))
	if !ok || group.Metadata.OrganizationID != organizationID {
		return nil, core.NotFound()
	}

	return group, nil
}

func get(req *core.Request) (*core.Reply, error) {
	group, err := find(req, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(renderGroup(group, core.BaseURL(req.Request))), nil
}

// decode reads a group write and applies identity's rules to it: members named
// one way only (groupMembers), roles that exist, are not protected and
// that the caller itself holds. IDs are deduplicated; service account IDs are not
// checked, as identity does not check them.
func decode(req *core.Request, organizationID string) (unikorn.GroupSpec, unikorn.WriteMetadata, error) {
	var body unikorn.GroupWrite
	if err := core.DecodeBody(req.Request, &body, writeRequired...); err != nil {
		return body.Spec, body.Metadata, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return body.Spec, body.Metadata, err
	}

	spec := body.Spec

	if err := members(req.Store, &spec, organizationID, core.BaseURL(req.Request)); err != nil {
		return spec, body.Metadata, err
	}

	spec.RoleIDs = Dedupe(spec.RoleIDs)
	for _, roleID := range spec.RoleIDs {
		role, ok := core.Get[core.Role](req.Store, roleID)
		if !ok {
			return spec, body.Metadata, core.BadRequest("role ID %s does not exist", roleID)
		}

		if role.Protected {
			return spec, body.Metadata, core.Forbidden("requested role is protected")
		}

		if err := req.Caller.ACL.AllowRole(organizationID, *role); err != nil {
			return spec, body.Metadata, core.Forbidden("requested role cannot be granted")
		}
	}

	spec.RoleIDs = core.NonNil(spec.RoleIDs)
	spec.ServiceAccountIDs = core.NonNil(Dedupe(spec.ServiceAccountIDs))

	return spec, body.Metadata, nil
}

func create(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacGroups, core.OpCreate)); err != nil {
		return nil, err
	}

	spec, metadata, err := decode(req, organizationID)
	if err != nil {
		return nil, err
	}

	group := &unikorn.Group{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   core.Settled(core.NewReadMetadata(core.NewResourceID(), metadata, req.Now)),
			OrganizationID: organizationID,
		},
		Spec: spec,
	}

	groups.Put(req.Store, group.Metadata.ID, group)

	return core.Created(renderGroup(group, core.BaseURL(req.Request))), nil
}

// update replaces a group and answers with no body.
func update(req *core.Request) (*core.Reply, error) {
	group, err := find(req, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	spec, metadata, err := decode(req, group.Metadata.OrganizationID)
	if err != nil {
		return nil, err
	}

	updated := *group
	core.RewriteMetadata(&updated.Metadata.ReadMetadata, metadata, req.Now)
	updated.Spec = spec
	groups.Put(req.Store, group.Metadata.ID, &updated)

	return core.OK(nil), nil
}

// remove deletes a group and takes it out of every project that names it.
func remove(req *core.Request) (*core.Reply, error) {
	group, err := find(req, core.OpDelete)
	if err != nil {
		return nil, err
	}

	for _, project := range core.All[unikorn.Project](req.Store) {
		if ids, changed := WithoutGroup(project.Spec.GroupIDs, group.Metadata.ID); changed {
			project.Spec.GroupIDs = ids
		}
	}

	groups.Delete(req.Store, group.Metadata.ID)

	return core.OK(nil), nil
}

// members is identity's populateSubjectsAndUserIDs (pkg/handler/groups): users
// are named by organization user IDs or by subjects, not both. Subjects derive the
// user IDs of those whose issuer is identity's own, each of which must be a user of
// the organization; user IDs, which must name the organization's users, derive
// their subjects. Both lists are deduplicated, subjects by issuer and ID.
func members(st *core.Store, spec *unikorn.GroupSpec, organizationID, issuer string) error {
	userIDs := Dedupe(spec.UserIDs)

	var subjects []unikorn.Subject

	for _, subject := range spec.Subjects {
		subject = issuerIn(subject, issuer)
		if !slices.ContainsFunc(subjects, func(s unikorn.Subject) bool { return s.ID == subject.ID && s.Issuer == subject.Issuer }) {
			subjects = append(subjects, subject)
		}
	}

	if err := CheckMembers(userIDs, len(subjects)); err != nil {
		return core.BadRequest("%s", err.Error())
	}

	switch {
	case len(subjects) > 0:
		userIDs = nil

		for _, subject := range subjects {
			if subject.Issuer != fixture.LocalIssuer {
				continue
			}

			userID, ok := globalUser(st, subject.ID)
			if !ok {
				return core.BadRequest("user with subject %s does not exist", subject.ID)
			}

			memberID, ok := organizationUser(st, organizationID, subject.ID)
			if !ok {
				return core.BadRequest("user with ID %s is not a member of this organization", userID)
			}

			userIDs = append(userIDs, memberID)
		}

		userIDs = Dedupe(userIDs)
	case len(userIDs) > 0:
		for _, userID := range userIDs {
			member, ok := core.Get[unikorn.User](st, userID)
			if !ok || member.Metadata.OrganizationID != organizationID {
				return core.BadRequest("user %s does not exist", userID)
			}

			subject := member.Spec.Subject
			if !slices.ContainsFunc(subjects, func(s unikorn.Subject) bool { return s.ID == subject }) {
				subjects = append(subjects, unikorn.Subject{ID: subject, Email: subject, Issuer: fixture.LocalIssuer})
			}
		}
	}

	spec.UserIDs, spec.Subjects = userIDs, subjects

	return nil
}
