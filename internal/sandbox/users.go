package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// User states, identity `userState`.
const (
	userActive    = "active"
	userPending   = "pending"
	userSuspended = "suspended"
)

// userRecord is identity's global User: one per subject, shared by every organization
// the user belongs to. Identity never deletes it through the organization API.
type userRecord struct {
	ID           string       `json:"id"`
	Subject      string       `json:"subject"`
	State        string       `json:"state"`
	Tags         unikorn.Tags `json:"tags,omitempty"`
	CreationTime time.Time    `json:"creationTime"`
	// LastActive is the user's latest authentication, which only a login records;
	// the sandbox's users hold fixed tokens and never log in.
	LastActive *time.Time `json:"lastActive,omitempty"`
}

// organizationUserRecord is identity's OrganizationUser: a global user's membership of
// one organization, whose ID is the user ID groups and the users API name.
type organizationUserRecord struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	// UserID is the global user's ID.
	UserID string `json:"userId"`
	State  string `json:"state"`
}

// userRead is identity `userRead`.
type userRead struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	Spec     userSpec                           `json:"spec"`
	Status   userStatus                         `json:"status"`
}

type userSpec struct {
	Subject  string   `json:"subject"`
	State    string   `json:"state"`
	GroupIDs []string `json:"groupIDs"`
}

type userStatus struct {
	LastActive *time.Time `json:"lastActive,omitempty"`
}

// userWrite is identity `userWrite`.
type userWrite struct {
	Metadata *unikorn.WriteMetadata `json:"metadata,omitempty"`
	Spec     userSpec               `json:"spec"`
}

// userWriteRequired is the required part of identity `userWrite`.
var userWriteRequired = []string{"spec", "spec.subject", "spec.state", "spec.groupIDs"}

// undefinedName is the name identity gives what has none of its own, such as an
// organization user (core's constants.UndefinedName).
const undefinedName = "undefined"

// userBySubject finds a global user.
func (w *world) userBySubject(subject string) *userRecord {
	for _, user := range byID(w.Users) {
		if user.Subject == subject {
			return user
		}
	}

	return nil
}

// organizationUser is the organization's user of a global user, or nil.
func (w *world) organizationUser(organizationID, userID string) *organizationUserRecord {
	for _, record := range byID(w.OrganizationUsers) {
		if record.Metadata.OrganizationID == organizationID && record.UserID == userID {
			return record
		}
	}

	return nil
}

// organizationUsersOf are a global user's memberships, in ID order.
func (w *world) organizationUsersOf(userID string) []*organizationUserRecord {
	var records []*organizationUserRecord

	for _, record := range byID(w.OrganizationUsers) {
		if record.UserID == userID {
			records = append(records, record)
		}
	}

	return records
}

// renderUser is identity's convert in pkg/handler/users: the subject and last
// activity are the global user's, the state the organization's, the groups those
// whose user IDs name the organization user. The organization user carries no tags.
func (w *world) renderUser(record *organizationUserRecord) userRead {
	user := w.Users[record.UserID]

	read := userRead{
		Metadata: record.Metadata,
		Spec:     userSpec{State: record.State, GroupIDs: []string{}},
	}

	if user != nil {
		read.Spec.Subject = user.Subject
		read.Status.LastActive = user.LastActive
	}

	for _, group := range w.groupsByName(record.Metadata.OrganizationID) {
		if slices.Contains(group.Spec.UserIDs, record.Metadata.ID) {
			read.Spec.GroupIDs = append(read.Spec.GroupIDs, group.Metadata.ID)
		}
	}

	return read
}

// joinUserGroups is identity's updateGroups: every group of the organization that
// groupIDs names gets the user's ID and subject, every other loses them. IDs that
// name no group are ignored.
func (w *world) joinUserGroups(record *organizationUserRecord, groupIDs []string) {
	subject := unikorn.Subject{ID: w.Users[record.UserID].Subject, Issuer: localIssuer}
	subject.Email = subject.ID

	for _, group := range w.groupsByName(record.Metadata.OrganizationID) {
		updated := *group
		userIDs := slices.Clone(group.Spec.UserIDs)
		subjects := slices.Clone(group.Spec.Subjects)

		if slices.Contains(groupIDs, group.Metadata.ID) {
			if !slices.Contains(userIDs, record.Metadata.ID) {
				userIDs = append(userIDs, record.Metadata.ID)
			}

			if !slices.Contains(subjects, subject) {
				subjects = append(subjects, subject)
			}
		} else {
			userIDs = slices.DeleteFunc(userIDs, func(id string) bool { return id == record.Metadata.ID })
			subjects = slices.DeleteFunc(subjects, func(s unikorn.Subject) bool { return s.ID == subject.ID && s.Issuer == subject.Issuer })
		}

		if !slices.Equal(userIDs, group.Spec.UserIDs) || !slices.Equal(subjects, group.Spec.Subjects) {
			updated.Spec.UserIDs, updated.Spec.Subjects = userIDs, subjects
			w.Groups[group.Metadata.ID] = &updated
		}
	}
}

// addUser makes an organization user of subject, and the global user if there is none:
// identity's getOrCreateGlobalUser and getOrCreateOrganizationUser. An existing
// membership is returned as it is.
func (w *world) addUser(organizationID, id, subject, state string, tags unikorn.Tags, now time.Time) *organizationUserRecord {
	user := w.userBySubject(subject)
	if user == nil {
		user = &userRecord{ID: newResourceID(), Subject: subject, State: userActive, Tags: tags, CreationTime: now.UTC().Truncate(time.Second)}
		w.Users[user.ID] = user
	}

	if record := w.organizationUser(organizationID, user.ID); record != nil {
		return record
	}

	record := &organizationUserRecord{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   groupMetadata(newReadMetadata(id, unikorn.WriteMetadata{Name: undefinedName}, now)),
			OrganizationID: organizationID,
		},
		UserID: user.ID,
		State:  state,
	}
	w.OrganizationUsers[record.Metadata.ID] = record

	return record
}

func decodeUser(req *core.Request) (userWrite, error) {
	var body userWrite
	if err := decodeBody(req.Request, &body, userWriteRequired...); err != nil {
		return body, err
	}

	switch body.Spec.State {
	case userActive, userPending, userSuspended:
	default:
		return body, errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/state\": value is not one of the allowed values [\"active\",\"pending\",\"suspended\"]")
	}

	return body, nil
}

func (s *Sandbox) listUsers(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacUsers, opRead)); err != nil {
		return nil, err
	}

	result := []userRead{}

	for _, record := range byID(s.world.OrganizationUsers) {
		if record.Metadata.OrganizationID != organizationID {
			continue
		}

		// Identity's convertList fails the whole list with a consistency error when
		// its cache has an organization user but not yet the global user behind it,
		// as just after a create: never a user without its subject.
		if s.world.Users[record.UserID] == nil {
			return nil, errServer()
		}

		result = append(result, s.world.renderUser(record))
	}

	// As identity's convertList: by subject.
	slices.SortStableFunc(result, func(a, b userRead) int { return strings.Compare(a.Spec.Subject, b.Spec.Subject) })

	return replyOK(result), nil
}

// createUser adds a user to the organization by subject, which must be an email
// address: identity leaves other subjects to its command line tool. Creating a
// subject the organization has keeps its state and only rewrites its groups.
func (s *Sandbox) createUser(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacUsers, opCreate)); err != nil {
		return nil, err
	}

	body, err := decodeUser(req)
	if err != nil {
		return nil, err
	}

	if _, err := mail.ParseAddress(body.Spec.Subject); err != nil {
		return nil, errBadRequest("subject address invalid")
	}

	var tags unikorn.Tags
	if body.Metadata != nil {
		tags = body.Metadata.Tags
	}

	record := s.world.addUser(organizationID, newResourceID(), body.Spec.Subject, body.Spec.State, tags, req.Now)
	s.world.joinUserGroups(record, body.Spec.GroupIDs)

	return replyCreated(s.world.renderUser(record)), nil
}

// findUser finds a user of the organization in the path, once the caller may act on users.
func (s *Sandbox) findUser(req *core.Request, operation string) (*organizationUserRecord, error) {
	if err := s.allowUsers(req, operation); err != nil {
		return nil, err
	}

	return s.organizationUserOf(req)
}

func (s *Sandbox) allowUsers(req *core.Request, operation string) error {
	return forbidden(req.Caller.ACL.AllowOrganization(req.PathValue("organizationID"), rbacUsers, operation))
}

func (s *Sandbox) organizationUserOf(req *core.Request) (*organizationUserRecord, error) {
	organizationID := req.PathValue("organizationID")

	record, ok := s.world.OrganizationUsers[req.PathValue("userID")]
	if !ok || record.Metadata.OrganizationID != organizationID {
		return nil, errNotFound()
	}

	return record, nil
}

// updateUser sets the organization user's state and rewrites its groups; the subject
// is the global user's and does not change. As identity, the body is read before the
// user is looked up.
func (s *Sandbox) updateUser(req *core.Request) (*core.Reply, error) {
	if err := s.allowUsers(req, opUpdate); err != nil {
		return nil, err
	}

	body, err := decodeUser(req)
	if err != nil {
		return nil, err
	}

	record, err := s.organizationUserOf(req)
	if err != nil {
		return nil, err
	}

	updated := *record
	rewriteMetadata(&updated.Metadata.ReadMetadata, unikorn.WriteMetadata{Name: undefinedName}, req.Now)
	updated.State = body.Spec.State
	s.world.OrganizationUsers[record.Metadata.ID] = &updated
	s.world.joinUserGroups(&updated, body.Spec.GroupIDs)

	return replyOK(s.world.renderUser(&updated)), nil
}

// deleteUser takes the user out of the organization's groups and the organization:
// whatever its token could do there, it can no longer. The global user remains.
func (s *Sandbox) deleteUser(req *core.Request) (*core.Reply, error) {
	record, err := s.findUser(req, opDelete)
	if err != nil {
		return nil, err
	}

	s.world.joinUserGroups(record, nil)
	delete(s.world.OrganizationUsers, record.Metadata.ID)

	return replyOK(nil), nil
}

// migrateUsers brings a world saved before users and organizations were kept up to
// date: the fixture organizations and users join it, and every group's members are named again as identity derives them
// from user IDs.
func (w *world) migrateUsers() {
	w.addOrganizations()
	w.addUserFixtures()

	for _, group := range w.Groups {
		if group.Metadata.OrganizationID == EmptyOrganizationID {
			for i, id := range group.Spec.UserIDs {
				if id == AdminUserID {
					group.Spec.UserIDs[i] = EmptyAdminUserID
				}
			}
		}

		if len(group.Spec.UserIDs) > 0 {
			group.Spec.Subjects = nil
			if err := w.groupMembers(&group.Spec, group.Metadata.OrganizationID, ""); err != nil {
				group.Spec.UserIDs, group.Spec.Subjects = nil, nil
			}
		}
	}

}
