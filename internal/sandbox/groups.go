package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// groupWriteRequired is the required part of identity `groupWrite`.
var groupWriteRequired = requiredWith("spec", "spec.roleIDs", "spec.serviceAccountIDs", "spec.subjects[].id", "spec.subjects[].issuer")

// localIssuer stands, in the sandbox's records, for identity's own issuer: its base
// URL, which the sandbox knows only from each request (baseURL). Subjects of the
// sandbox's users are kept with it and read with the URL the caller used, so that
// a record made before any request, or saved and served again on another port,
// still names the sandbox's own users. An external subject keeps its issuer, even
// an empty one.
const localIssuer = "sandbox:identity"

// issuerOut and issuerIn translate a subject's issuer between the wire, where
// identity's own is its URL, and the records.
func issuerOut(subject unikorn.Subject, url string) unikorn.Subject {
	if subject.Issuer == localIssuer {
		subject.Issuer = url
	}

	return subject
}

func issuerIn(subject unikorn.Subject, url string) unikorn.Subject {
	if subject.Issuer == url {
		subject.Issuer = localIssuer
	}

	return subject
}

// groupMetadata is the status identity reports for a group or a service account. Neither
// has status conditions (no StatusConditionRead in identity's API types), and core's
// conversion (ResourceReadMetadata: convertStatusCondition, convertHealthCondition)
// reports a resource without them as provisioned and healthy.
func groupMetadata(metadata unikorn.ReadMetadata) unikorn.ReadMetadata {
	metadata.ProvisioningStatus = unikorn.ProvisioningProvisioned
	metadata.HealthStatus = unikorn.HealthHealthy

	return metadata
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
			RoleIDs:           nonNil(group.Spec.RoleIDs),
			UserIDs:           nonNil(group.Spec.UserIDs),
			Subjects:          subjects,
			ServiceAccountIDs: nonNil(group.Spec.ServiceAccountIDs),
		},
	}
}

func rbacGroup(group *unikorn.Group) core.Group {
	subjects := make([]string, 0, len(group.Spec.Subjects))
	for _, subject := range group.Spec.Subjects {
		subjects = append(subjects, subject.ID)
	}

	return core.Group{
		ID:                group.Metadata.ID,
		RoleIDs:           group.Spec.RoleIDs,
		UserIDs:           group.Spec.UserIDs,
		Subjects:          subjects,
		ServiceAccountIDs: group.Spec.ServiceAccountIDs,
	}
}

// groupsByName are the organization's groups in identity's list order, by
// Kubernetes name, which is the ID.
func (w *world) groupsByName(organizationID string) []*unikorn.Group {
	var groups []*unikorn.Group

	for _, group := range byID(w.Groups) {
		if group.Metadata.OrganizationID == organizationID {
			groups = append(groups, group)
		}
	}

	return groups
}

func (s *Sandbox) listGroups(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacGroups, opRead)); err != nil {
		return nil, err
	}

	result := []groupRead{}
	for _, group := range s.world.groupsByName(organizationID) {
		result = append(result, renderGroup(group, baseURL(req.Request)))
	}

	return replyOK(result), nil
}

// findGroup finds a group of the organization in the path, once the caller may act on groups.
func (s *Sandbox) findGroup(req *core.Request, operation string) (*unikorn.Group, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacGroups, operation)); err != nil {
		return nil, err
	}

	group, ok := s.world.Groups[req.PathValue("groupid")]
	if !ok || group.Metadata.OrganizationID != organizationID {
		return nil, errNotFound()
	}

	return group, nil
}

func (s *Sandbox) getGroup(req *core.Request) (*core.Reply, error) {
	group, err := s.findGroup(req, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(renderGroup(group, baseURL(req.Request))), nil
}

// decodeGroup reads a group write and applies identity's rules to it: members named
// one way only (groupMembers), roles that exist, are not protected and
// that the caller itself holds. IDs are deduplicated; service account IDs are not
// checked, as identity does not check them.
func (s *Sandbox) decodeGroup(req *core.Request, organizationID string) (unikorn.GroupSpec, unikorn.WriteMetadata, error) {
	var body unikorn.GroupWrite
	if err := decodeBody(req.Request, &body, groupWriteRequired...); err != nil {
		return body.Spec, body.Metadata, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return body.Spec, body.Metadata, err
	}

	spec := body.Spec

	if err := s.world.groupMembers(&spec, organizationID, baseURL(req.Request)); err != nil {
		return spec, body.Metadata, err
	}

	spec.RoleIDs = identity.Dedupe(spec.RoleIDs)
	for _, roleID := range spec.RoleIDs {
		role, ok := identity.RoleByID(roleID)
		if !ok {
			return spec, body.Metadata, errBadRequest("role ID %s does not exist", roleID)
		}

		if role.Protected {
			return spec, body.Metadata, errForbidden("requested role is protected")
		}

		if err := req.Caller.ACL.AllowRole(organizationID, role); err != nil {
			return spec, body.Metadata, errForbidden("requested role cannot be granted")
		}
	}

	spec.RoleIDs = nonNil(spec.RoleIDs)
	spec.ServiceAccountIDs = nonNil(identity.Dedupe(spec.ServiceAccountIDs))

	return spec, body.Metadata, nil
}

func (s *Sandbox) createGroup(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacGroups, opCreate)); err != nil {
		return nil, err
	}

	spec, metadata, err := s.decodeGroup(req, organizationID)
	if err != nil {
		return nil, err
	}

	group := &unikorn.Group{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   groupMetadata(newReadMetadata(newResourceID(), metadata, req.Now)),
			OrganizationID: organizationID,
		},
		Spec: spec,
	}

	s.world.Groups[group.Metadata.ID] = group

	return replyCreated(renderGroup(group, baseURL(req.Request))), nil
}

// updateGroup replaces a group and answers with no body.
func (s *Sandbox) updateGroup(req *core.Request) (*core.Reply, error) {
	group, err := s.findGroup(req, opUpdate)
	if err != nil {
		return nil, err
	}

	spec, metadata, err := s.decodeGroup(req, group.Metadata.OrganizationID)
	if err != nil {
		return nil, err
	}

	updated := *group
	rewriteMetadata(&updated.Metadata.ReadMetadata, metadata, req.Now)
	updated.Spec = spec
	s.world.Groups[group.Metadata.ID] = &updated

	return replyOK(nil), nil
}

// deleteGroup deletes a group and takes it out of every project that names it.
func (s *Sandbox) deleteGroup(req *core.Request) (*core.Reply, error) {
	group, err := s.findGroup(req, opDelete)
	if err != nil {
		return nil, err
	}

	for _, record := range s.world.Projects {
		if ids, changed := identity.WithoutGroup(record.Project.Spec.GroupIDs, group.Metadata.ID); changed {
			record.Project.Spec.GroupIDs = ids
		}
	}

	delete(s.world.Groups, group.Metadata.ID)

	return replyOK(nil), nil
}

// listRoles lists the roles the caller could give a group, as identity's
// pkg/handler/roles does: never a protected one, nor one granting what the caller
// does not hold itself (an auditor does not see administrator).
func (s *Sandbox) listRoles(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacRoles, opRead)); err != nil {
		return nil, err
	}

	result := []unikorn.Role{}

	for _, role := range identity.Roles {
		if role.Protected || req.Caller.ACL.AllowRole(organizationID, role) != nil {
			continue
		}

		metadata := provisionedMetadata(role.ID, role.Name)
		metadata.Description = role.Description
		result = append(result, unikorn.Role{Metadata: metadata})
	}

	return replyOK(result), nil
}

// groupMembers is identity's populateSubjectsAndUserIDs (pkg/handler/groups): users
// are named by organization user IDs or by subjects, not both. Subjects derive the
// user IDs of those whose issuer is identity's own, each of which must be a user of
// the organization; user IDs, which must name the organization's users, derive
// their subjects. Both lists are deduplicated, subjects by issuer and ID.
func (w *world) groupMembers(spec *unikorn.GroupSpec, organizationID, issuer string) error {
	userIDs := identity.Dedupe(spec.UserIDs)

	var subjects []unikorn.Subject

	for _, subject := range spec.Subjects {
		subject = issuerIn(subject, issuer)
		if !slices.ContainsFunc(subjects, func(s unikorn.Subject) bool { return s.ID == subject.ID && s.Issuer == subject.Issuer }) {
			subjects = append(subjects, subject)
		}
	}

	if err := identity.CheckMembers(userIDs, len(subjects)); err != nil {
		return errBadRequest("%s", err.Error())
	}

	switch {
	case len(subjects) > 0:
		userIDs = nil

		for _, subject := range subjects {
			if subject.Issuer != localIssuer {
				continue
			}

			user := w.userBySubject(subject.ID)
			if user == nil {
				return errBadRequest("user with subject %s does not exist", subject.ID)
			}

			member := w.organizationUser(organizationID, user.ID)
			if member == nil {
				return errBadRequest("user with ID %s is not a member of this organization", user.ID)
			}

			userIDs = append(userIDs, member.Metadata.ID)
		}

		userIDs = identity.Dedupe(userIDs)
	case len(userIDs) > 0:
		for _, userID := range userIDs {
			member, ok := w.OrganizationUsers[userID]
			if !ok || member.Metadata.OrganizationID != organizationID {
				return errBadRequest("user %s does not exist", userID)
			}

			subject := w.Users[member.UserID].Subject
			if !slices.ContainsFunc(subjects, func(s unikorn.Subject) bool { return s.ID == subject }) {
				subjects = append(subjects, unikorn.Subject{ID: subject, Email: subject, Issuer: localIssuer})
			}
		}
	}

	spec.UserIDs, spec.Subjects = userIDs, subjects

	return nil
}
