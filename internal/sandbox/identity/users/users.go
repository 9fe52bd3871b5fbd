// Package users is identity's users (pkg/handler/users): a person is a global user,
// one per subject, and a user of each organization it belongs to, whose ID groups
// name. Identity keeps a user's groups on the groups: a user's write rewrites every
// group of its organization. Other families read an organization's users as
// unikorn.User and a global user as the unikorn.Subject it is.
package users

import (
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's users.
var Family = core.Family{Name: "users", Register: register}

const (
	// ObjectKind is an organization's user's kind among the objects the sandbox holds;
	// identity keeps the global user behind it when it leaves, so global users are not
	// objects.
	ObjectKind = "user"

	rbacUsers = "identity:users"

	// undefinedName is the name identity gives what has none of its own, such as an
	// organization user (core's constants.UndefinedName).
	undefinedName = "undefined"
)

// globalUser is identity's global User: one per subject, shared by every organization
// the user belongs to. Identity never deletes it through the organization API.
type globalUser struct {
	ID           string       `json:"id"`
	Subject      string       `json:"subject"`
	State        string       `json:"state"`
	Tags         unikorn.Tags `json:"tags,omitempty"`
	CreationTime time.Time    `json:"creationTime"`
	// LastActive is the user's latest authentication, which only a login records;
	// the sandbox's users hold fixed tokens and never log in.
	LastActive *time.Time `json:"lastActive,omitempty"`
}

// member is identity's OrganizationUser: a global user's membership of one
// organization, whose ID is the user ID groups and the users API name.
type member struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	// UserID is the global user's ID.
	UserID string `json:"userId"`
	State  string `json:"state"`
}

var (
	globalUsers = &core.Kind[globalUser]{Name: "users"}
	members     = &core.Kind[member]{
		Name: "organizationUsers",
		Object: func(st *core.Store, m *member) core.Object {
			object := core.OrganizationObject(ObjectKind, &m.Metadata)
			// Named by subject: an organization user's own name is identity's "undefined".
			if user, ok := globalUsers.Get(st, m.UserID); ok {
				object.Name = user.Subject
			}

			return object
		},
	}
)

// fixtureUsers are the identity users behind the fixture tokens, and their users in
// each organization they belong to. The outsider belongs to none.
var fixtureUsers = []struct {
	id, subject string
	members     map[string]string // organization ID to organization user ID
}{
	{fixture.GlobalUserID, fixture.UserSubject, map[string]string{fixture.OrganizationID: fixture.UserID}},
	{fixture.GlobalAdminID, fixture.AdminSubject, map[string]string{fixture.OrganizationID: fixture.AdminUserID, fixture.EmptyOrganizationID: fixture.EmptyAdminUserID}},
	{fixture.GlobalForeignID, fixture.ForeignSubject, map[string]string{fixture.ForeignOrganizationID: fixture.ForeignUserID}},
	{fixture.GlobalOutsiderID, fixture.OutsiderSubject, nil},
}

func register(s *core.Server) error {
	core.Register(s, globalUsers)
	core.Register(s, members)

	core.Expose(s, globalUsers, core.View[globalUser, unikorn.Subject]{
		Show: func(u *globalUser) *unikorn.Subject {
			return &unikorn.Subject{ID: u.Subject, Email: u.Subject, Issuer: fixture.LocalIssuer}
		},
	})
	core.Expose(s, members, core.View[member, unikorn.User]{ShowIn: render})

	s.Handle("GET /api/v1/organizations/{organizationID}/users", list)
	s.Handle("POST /api/v1/organizations/{organizationID}/users", create)
	s.Handle("PUT /api/v1/organizations/{organizationID}/users/{userID}", update)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/users/{userID}", remove)

	s.Fixture(fixtures)
	// Versions 1 and 2 kept no users: groups named the fixture users by their IDs alone.
	s.Migrate(1, fixtures)
	s.Migrate(2, fixtures)

	return nil
}

// fixtures adds the fixture users, active, and their organization users.
func fixtures(st *core.Store) error {
	for _, user := range fixtureUsers {
		globalUsers.Put(st, user.id, &globalUser{ID: user.id, Subject: user.subject, State: unikorn.UserActive, CreationTime: core.FixtureTime})

		for organizationID, id := range user.members {
			add(st, organizationID, id, user.subject, unikorn.UserActive, nil, core.FixtureTime)
		}
	}

	return nil
}

// bySubject finds a global user.
func bySubject(st *core.Store, subject string) *globalUser {
	for _, user := range globalUsers.Sorted(st) {
		if user.Subject == subject {
			return user
		}
	}

	return nil
}

// membership is the organization's user of a global user, or nil.
func membership(st *core.Store, organizationID, userID string) *member {
	for _, m := range members.Sorted(st) {
		if m.Metadata.OrganizationID == organizationID && m.UserID == userID {
			return m
		}
	}

	return nil
}

// render is identity's convert in pkg/handler/users: the subject and last activity
// are the global user's, the state the organization's, the groups those whose user
// IDs name the organization user. The organization user carries no tags.
func render(st *core.Store, m *member) *unikorn.User {
	read := &unikorn.User{
		Metadata: m.Metadata,
		Spec:     unikorn.UserSpec{State: m.State, GroupIDs: []string{}},
	}

	if user, ok := globalUsers.Get(st, m.UserID); ok {
		read.Spec.Subject = user.Subject
		read.Status.LastActive = user.LastActive
	}

	for id, group := range core.All[unikorn.Group](st) {
		if group.Metadata.OrganizationID == m.Metadata.OrganizationID && slices.Contains(group.Spec.UserIDs, m.Metadata.ID) {
			read.Spec.GroupIDs = append(read.Spec.GroupIDs, id)
		}
	}

	return read
}

// joinGroups is identity's updateGroups: every group of the organization that groupIDs
// names gets the user's ID and subject, every other loses them. IDs that name no group
// are ignored.
func joinGroups(st *core.Store, m *member, groupIDs []string) {
	subject := unikorn.Subject{Issuer: fixture.LocalIssuer}
	if user, ok := globalUsers.Get(st, m.UserID); ok {
		subject.ID, subject.Email = user.Subject, user.Subject
	}

	for id, group := range core.All[unikorn.Group](st) {
		if group.Metadata.OrganizationID != m.Metadata.OrganizationID {
			continue
		}

		userIDs := slices.Clone(group.Spec.UserIDs)
		subjects := slices.Clone(group.Spec.Subjects)

		if slices.Contains(groupIDs, id) {
			if !slices.Contains(userIDs, m.Metadata.ID) {
				userIDs = append(userIDs, m.Metadata.ID)
			}

			if !slices.Contains(subjects, subject) {
				subjects = append(subjects, subject)
			}
		} else {
			userIDs = slices.DeleteFunc(userIDs, func(id string) bool { return id == m.Metadata.ID })
			subjects = slices.DeleteFunc(subjects, func(s unikorn.Subject) bool { return s.ID == subject.ID && s.Issuer == subject.Issuer })
		}

		if !slices.Equal(userIDs, group.Spec.UserIDs) || !slices.Equal(subjects, group.Spec.Subjects) {
			group.Spec.UserIDs, group.Spec.Subjects = userIDs, subjects
		}
	}
}

// add makes an organization user of subject, and the global user if there is none:
// identity's getOrCreateGlobalUser and getOrCreateOrganizationUser. An existing
// membership is returned as it is.
func add(st *core.Store, organizationID, id, subject, state string, tags unikorn.Tags, now time.Time) *member {
	user := bySubject(st, subject)
	if user == nil {
		user = &globalUser{ID: core.NewResourceID(), Subject: subject, State: unikorn.UserActive, Tags: tags, CreationTime: now.UTC().Truncate(time.Second)}
		globalUsers.Put(st, user.ID, user)
	}

	if m := membership(st, organizationID, user.ID); m != nil {
		return m
	}

	m := &member{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   core.Settled(core.NewReadMetadata(id, unikorn.WriteMetadata{Name: undefinedName}, now)),
			OrganizationID: organizationID,
		},
		UserID: user.ID,
		State:  state,
	}
	members.Put(st, m.Metadata.ID, m)

	return m
}
