package identity

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// AdoptedError means the answer to a service account's create was lost, and the
// account it made was found and adopted: it exists, but its access token, which only
// that answer carried, is lost for good. A rotation issues a new one.
type AdoptedError struct {
	ServiceAccount *ServiceAccount
	Err            error
}

func (e *AdoptedError) Error() string {
	return fmt.Sprintf("the answer to creating service account %s (%q) was lost, and with it the account's access token, "+
		"which identity shows only once; the account was found and is kept, without a token: rotate it to get one (%v)",
		e.ServiceAccount.ID, e.ServiceAccount.Name, e.Err)
}

func (e *AdoptedError) Unwrap() error { return e.Err }

// GroupsNotJoinedError means identity did not put a service account or a user in
// every group asked for: it ignores group IDs that name no group of the organization.
type GroupsNotJoinedError struct {
	// Member names who was to join: "service account ID" or "user ID".
	Member  string
	Missing []string
}

func (e *GroupsNotJoinedError) Error() string {
	return fmt.Sprintf("%s was not put in the groups %v: identity ignores group IDs that name no group of the organization; "+
		"check that they exist", e.Member, e.Missing)
}

func (s *Service) groups(organizationID string) cloud.Object[unikorn.Group] {
	return cloud.Object[unikorn.Group]{
		Kind: "group",
		Get: func(ctx context.Context, id string) (*unikorn.Group, error) {
			return s.client.GetGroup(ctx, organizationID, id)
		},
		Del: func(ctx context.Context, id string) error {
			return s.client.DeleteGroup(ctx, organizationID, id)
		},
		Metadata: func(group *unikorn.Group) *unikorn.ReadMetadata { return &group.Metadata.ReadMetadata },
	}
}

// ReadGroup returns the group, or nil when identity definitely has none (a 404 past
// the read lag).
func (s *Service) ReadGroup(ctx context.Context, organizationID, id string) (*Group, error) {
	return cloud.One(groupFromWire)(s.groups(organizationID).Read(ctx, s.session, id))
}

// ListGroups lists the organization's groups.
func (s *Service) ListGroups(ctx context.Context, organizationID string) ([]Group, error) {
	return cloud.All(groupFromWire)(s.client.ListGroups(ctx, organizationID))
}

// CreateGroup creates a group, sent once; groups are synchronous, so nothing is waited
// for but a create whose answer was lost, which is looked for and adopted.
func (s *Service) CreateGroup(ctx context.Context, organizationID string, write GroupWrite) (*Group, error) {
	list := func(ctx context.Context) ([]unikorn.Group, error) { return s.client.ListGroups(ctx, organizationID) }

	group, err := s.groups(organizationID).Post(ctx, s.session, write.Name, list, func(ctx context.Context) (*unikorn.Group, error) {
		return s.client.CreateGroup(ctx, organizationID, write.wire())
	})

	return cloud.One(groupFromWire)(group, err)
}

// UpdateGroup replaces a group; identity answers with no body, so the group is read
// back, past the read lag, until it shows the update.
func (s *Service) UpdateGroup(ctx context.Context, organizationID, id string, write GroupWrite) (*Group, error) {
	if err := s.client.UpdateGroup(ctx, organizationID, id, write.wire()); err != nil {
		return nil, err
	}

	var group *Group

	err := s.session.WaitFor(ctx, "group "+id+" to show the update", func(ctx context.Context) (bool, error) {
		read, err := s.client.GetGroup(ctx, organizationID, id)
		if err != nil {
			return false, cloud.ReadFailed(err)
		}

		group = groupFromWire(read)

		return groupShows(group, write), nil
	})

	return group, err
}

func groupShows(group *Group, write GroupWrite) bool {
	return sameMetadata(group.WriteMetadata, write.WriteMetadata) &&
		sameSet(group.RoleIDs, write.RoleIDs) && sameSet(group.ServiceAccountIDs, write.ServiceAccountIDs) &&
		(len(write.UserIDs) == 0 || sameSet(group.UserIDs, write.UserIDs))
}

// DeleteGroup deletes a group until identity answers a definite 404 for it.
func (s *Service) DeleteGroup(ctx context.Context, organizationID, id string, created time.Time) error {
	return s.groups(organizationID).Delete(ctx, s.session, id, created)
}

// Group finds one group by ID or by name in the selector's organization.
func (s *Service) Group(ctx context.Context, selector Selector) (*Group, error) {
	group, err := s.groups(selector.OrganizationID).Lookup(ctx, s.session, selector,
		func(ctx context.Context) ([]unikorn.Group, error) {
			return s.client.ListGroups(ctx, selector.OrganizationID)
		})

	return cloud.One(groupFromWire)(group, err)
}

// serviceAccounts reads a service account by listing, since identity has no read of
// one by ID: a missing account is a 404 like any other, which the waits and Read
// treat as they treat any 404 (definite only past the read lag).
func (s *Service) serviceAccounts(organizationID string) cloud.Object[unikorn.ServiceAccount] {
	return cloud.Object[unikorn.ServiceAccount]{
		Kind: "service account",
		Get: func(ctx context.Context, id string) (*unikorn.ServiceAccount, error) {
			accounts, err := s.client.ListServiceAccounts(ctx, organizationID)
			if err != nil {
				return nil, err
			}

			for i := range accounts {
				if accounts[i].Metadata.ID == id {
					return &accounts[i], nil
				}
			}

			return nil, notFound("/api/v1/organizations/" + organizationID + "/serviceaccounts")
		},
		Del: func(ctx context.Context, id string) error {
			return s.client.DeleteServiceAccount(ctx, organizationID, id)
		},
		Metadata: func(account *unikorn.ServiceAccount) *unikorn.ReadMetadata { return &account.Metadata.ReadMetadata },
	}
}

// ReadServiceAccount returns the account, or nil when identity's list definitely has
// it no longer: a miss is believed only once the read lag has passed.
func (s *Service) ReadServiceAccount(ctx context.Context, organizationID, id string) (*ServiceAccount, error) {
	return cloud.One(serviceAccountFromWire)(s.serviceAccounts(organizationID).Read(ctx, s.session, id))
}

// waitServiceAccount waits until identity's list shows the account as write made it:
// its groups are kept on the groups, so a read right after a write may show the
// groups' previous members. The account answered by the write (or, adopted, first
// read) is returned with what the list shows of it, its token kept. An answered
// write says which groups identity took; an adopted create does not, so its groups
// are what the list shows once the read lag has passed.
func (s *Service) waitServiceAccount(ctx context.Context, organizationID string, account *ServiceAccount, write ServiceAccountWrite, answered bool) (*ServiceAccount, error) {
	id := account.ID
	shown := account
	expected := joinable(account, write.GroupIDs)
	settled := s.session.UnseenSettled()

	if !answered {
		expected = write.GroupIDs
	}

	err := s.session.WaitFor(ctx, "service account "+id+" to show its groups", func(ctx context.Context) (bool, error) {
		began := time.Now()

		read, err := s.serviceAccounts(organizationID).Get(ctx, id)

		switch {
		case unikorn.IsNotFound(err):
			return false, nil
		case err != nil:
			return false, cloud.ReadFailed(err)
		}

		shown = serviceAccountFromWire(read)
		shown.AccessToken = account.AccessToken

		return sameMetadata(shown.WriteMetadata, write.WriteMetadata) &&
			(sameSet(shown.GroupIDs, expected) || (!answered && !cloud.Unsettled(began, settled))), nil
	})
	if err != nil {
		return shown, err
	}

	if !answered {
		return shown, joined(shown, write.GroupIDs)
	}

	return shown, nil
}

// joinable is the groups of wanted that identity put the account in: it ignores the
// IDs of groups that do not exist, which joined reports.
func joinable(account *ServiceAccount, wanted []string) []string {
	var groups []string

	for _, id := range wanted {
		if slices.Contains(account.GroupIDs, id) {
			groups = append(groups, id)
		}
	}

	return groups
}

// ListServiceAccounts lists the organization's service accounts.
func (s *Service) ListServiceAccounts(ctx context.Context, organizationID string) ([]ServiceAccount, error) {
	return cloud.All(serviceAccountFromWire)(s.client.ListServiceAccounts(ctx, organizationID))
}

// CreateServiceAccount creates a service account, sent once. Its answer carries the
// access token in AccessToken. A create whose answer was lost is looked for
// and adopted; the account is returned with an *AdoptedError, since its token is lost.
func (s *Service) CreateServiceAccount(ctx context.Context, organizationID string, write ServiceAccountWrite) (*ServiceAccount, error) {
	list := func(ctx context.Context) ([]unikorn.ServiceAccount, error) {
		return s.client.ListServiceAccounts(ctx, organizationID)
	}

	var lost error

	created, err := s.serviceAccounts(organizationID).Post(ctx, s.session, write.Name, list,
		func(ctx context.Context) (*unikorn.ServiceAccount, error) {
			account, err := s.client.CreateServiceAccount(ctx, organizationID, write.wire())
			if err != nil && !cloud.IsClientError(err) {
				lost = err
			}

			return account, err
		})
	if err != nil {
		return nil, err
	}

	account := serviceAccountFromWire(created)

	// An answer says which groups identity took; an adopted account's first read may
	// not show them yet.
	answered := account.AccessToken != "" || lost == nil
	if answered {
		if err := joined(account, write.GroupIDs); err != nil {
			return account, err
		}
	}

	if account, err = s.waitServiceAccount(ctx, organizationID, account, write, answered); err != nil {
		return account, err
	}

	if account.AccessToken == "" && lost != nil {
		return account, &AdoptedError{ServiceAccount: account, Err: lost}
	}

	return account, nil
}

// joined checks that identity put the account in every group asked for.
func joined(account *ServiceAccount, wanted []string) error {
	return joinedAll("service account "+account.ID, account.GroupIDs, wanted)
}

// joinedAll checks that the groups a member is in (got) hold every group asked for.
func joinedAll(member string, got, wanted []string) error {
	var missing []string

	for _, id := range wanted {
		if !slices.Contains(got, id) {
			missing = append(missing, id)
		}
	}

	if len(missing) > 0 {
		return &GroupsNotJoinedError{Member: member, Missing: missing}
	}

	return nil
}

// UpdateServiceAccount replaces an account's metadata and groups; its token is kept.
func (s *Service) UpdateServiceAccount(ctx context.Context, organizationID, id string, write ServiceAccountWrite) (*ServiceAccount, error) {
	updated, err := s.client.UpdateServiceAccount(ctx, organizationID, id, write.wire())
	if err != nil {
		return nil, err
	}

	account := serviceAccountFromWire(updated)
	if err := joined(account, write.GroupIDs); err != nil {
		return account, err
	}

	return s.waitServiceAccount(ctx, organizationID, account, write, true)
}

// DeleteServiceAccount deletes an account, which revokes its token, until identity's
// list definitely no longer has it.
func (s *Service) DeleteServiceAccount(ctx context.Context, organizationID, id string, created time.Time) error {
	return s.serviceAccounts(organizationID).Delete(ctx, s.session, id, created)
}

// RotateServiceAccount issues a new token and revokes the old one. It is sent once and
// never again: a lost answer has lost the new token and revoked the old, and only
// another rotation, asked for by the user, issues one.
func (s *Service) RotateServiceAccount(ctx context.Context, organizationID, id string) (*ServiceAccount, error) {
	account, err := s.client.RotateServiceAccount(ctx, organizationID, id)
	if err != nil && !cloud.IsClientError(err) {
		return nil, fmt.Errorf("the answer to rotating service account %s was lost; the rotation may have happened, "+
			"revoking the old token with the new one lost: rotate again to get a token: %w", id, err)
	}

	return cloud.One(serviceAccountFromWire)(account, err)
}
