package identity

import (
	"context"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// users reads a user by listing, since identity has no read of one by ID, as it does
// service accounts. A user is named by its subject: its metadata's name is identity's
// placeholder, so a lost create is looked for by subject.
func (s *Service) users(organizationID string) cloud.Object[unikorn.User] {
	return cloud.Object[unikorn.User]{
		Kind: "user",
		Get: func(ctx context.Context, id string) (*unikorn.User, error) {
			users, err := s.client.ListUsers(ctx, organizationID)
			if err != nil {
				return nil, err
			}

			for i := range users {
				if users[i].Metadata.ID == id {
					return &users[i], nil
				}
			}

			return nil, notFound("/api/v1/organizations/" + organizationID + "/users")
		},
		Del: func(ctx context.Context, id string) error {
			return s.client.DeleteUser(ctx, organizationID, id)
		},
		Metadata: func(user *unikorn.User) *unikorn.ReadMetadata {
			metadata := user.Metadata.ReadMetadata
			metadata.Name = user.Spec.Subject

			return &metadata
		},
	}
}

// ReadUser returns the user, or nil when identity's list definitely has it no longer:
// a miss is believed only once the read lag has passed.
func (s *Service) ReadUser(ctx context.Context, organizationID, id string) (*User, error) {
	return cloud.One(userFromWire)(s.users(organizationID).Read(ctx, s.session, id))
}

// ListUsers lists the organization's users.
func (s *Service) ListUsers(ctx context.Context, organizationID string) ([]User, error) {
	return cloud.All(userFromWire)(s.client.ListUsers(ctx, organizationID))
}

// User finds one user by ID, or by subject (the selector's Name), in the selector's
// organization.
func (s *Service) User(ctx context.Context, selector Selector) (*User, error) {
	selector.NamedBy = "subject"

	user, err := s.users(selector.OrganizationID).Lookup(ctx, s.session, selector,
		func(ctx context.Context) ([]unikorn.User, error) {
			return s.client.ListUsers(ctx, selector.OrganizationID)
		})

	return cloud.One(userFromWire)(user, err)
}

// Organization reads an organization: its type, domain and identity provider.
func (s *Service) Organization(ctx context.Context, id string) (*Organization, error) {
	return cloud.One(organizationFromWire)(s.client.GetOrganization(ctx, id))
}

// CreateUser makes a subject a user of the organization, in the groups named, sent
// once; a create whose answer was lost is looked for by its subject and adopted. The
// user is returned once identity's list shows it in its groups. Identity ignores group
// IDs that name no group, which an answer shows and a *GroupsNotJoinedError reports.
func (s *Service) CreateUser(ctx context.Context, organizationID string, write UserWrite) (*User, error) {
	list := func(ctx context.Context) ([]unikorn.User, error) { return s.client.ListUsers(ctx, organizationID) }

	var answer *unikorn.User

	user, err := s.users(organizationID).Post(ctx, s.session, write.Subject, list, func(ctx context.Context) (*unikorn.User, error) {
		created, err := s.client.CreateUser(ctx, organizationID, write.wire())
		answer = created

		return created, err
	})
	if err != nil {
		return nil, err
	}

	if answer != nil {
		if err := joinedAll("user "+answer.Metadata.ID, answer.Spec.GroupIDs, write.GroupIDs); err != nil {
			return userFromWire(answer), err
		}
	}

	return s.waitUser(ctx, organizationID, user, write)
}

// UpdateUser replaces a user's state and groups.
func (s *Service) UpdateUser(ctx context.Context, organizationID, id string, write UserWrite) (*User, error) {
	user, err := s.client.UpdateUser(ctx, organizationID, id, write.wire())
	if err != nil {
		return nil, err
	}

	if err := joinedAll("user "+id, user.Spec.GroupIDs, write.GroupIDs); err != nil {
		return userFromWire(user), err
	}

	return s.waitUser(ctx, organizationID, user, write)
}

// waitUser waits until identity's list shows the user as write made it: its groups are
// kept on the groups, and the list comes from a cache that may lag the write.
func (s *Service) waitUser(ctx context.Context, organizationID string, user *unikorn.User, write UserWrite) (*User, error) {
	id := user.Metadata.ID
	shown := user

	err := s.session.WaitFor(ctx, "user "+id+" to show the change", func(ctx context.Context) (bool, error) {
		read, err := s.users(organizationID).Get(ctx, id)
		if unikorn.IsNotFound(err) {
			return false, nil
		}

		if err != nil {
			return false, cloud.ReadFailed(err)
		}

		shown = read

		return read.Spec.State == write.State && sameSet(read.Spec.GroupIDs, write.GroupIDs), nil
	})

	return userFromWire(shown), err
}

// DeleteUser takes the user out of the organization, which revokes its tokens, until
// identity's list definitely no longer has it.
func (s *Service) DeleteUser(ctx context.Context, organizationID, id string, created time.Time) error {
	return s.users(organizationID).Delete(ctx, s.session, id, created)
}
