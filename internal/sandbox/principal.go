package sandbox

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
)

// fixtures is the authenticator of the fixture principals' tokens.
type fixtures struct {
	// token is the fixture user's, which Options.Token may change.
	token string
}

// fixtureFor is the fixture principal a token names, if it names one.
func (f fixtures) fixtureFor(token string) (fixturePrincipal, bool) {
	switch token {
	case f.token:
		return fixtureUser, true
	case OutsiderToken:
		return outsider, true
	case ForeignToken:
		return foreigner, true
	case ServiceToken:
		return serviceUser, true
	case AdminToken:
		return administrator, true
	case PlatformAdminToken:
		return platformAdministrator, true
	}

	return fixturePrincipal{}, false
}

func (f fixtures) Plausible(token string) bool {
	_, ok := f.fixtureFor(token)

	return ok
}

// Resolve works out what a fixture token may do now. Its user's rights hold only where
// the user is a user now.
func (f fixtures) Resolve(st *core.Store, token string, _ time.Time) (*core.Caller, bool, error) {
	fixture, ok := f.fixtureFor(token)
	if !ok {
		return nil, false, nil
	}

	acl := core.NewACL()
	fixture.grant(st, acl)

	subject := ""

	if fixture.user != "" {
		w := worldOf(st)
		w.grantUser(acl, fixture.user)

		if user, ok := w.Users[fixture.user]; ok {
			subject = user.Subject
		}
	}

	return &core.Caller{Legacy: fixture.legacy, Service: fixture.service, ACL: acl, Subject: subject}, true, nil
}

// serviceAccounts is the authenticator of service accounts' tokens.
type serviceAccountTokens struct{}

func (serviceAccountTokens) Plausible(token string) bool {
	return identity.IsAccessToken(token)
}

func (serviceAccountTokens) Resolve(st *core.Store, token string, now time.Time) (*core.Caller, bool, error) {
	for _, account := range worldOf(st).ServiceAccounts {
		if account.Token == "" || account.Token != token {
			continue
		}

		if !now.Before(account.Expiry) {
			return nil, false, &core.Unauthenticated{Cause: "token expired"}
		}

		id, organizationID := account.Metadata.ID, account.Metadata.OrganizationID

		acl := core.NewACL()
		core.GrantGroups(st, acl, organizationID, core.Member{ServiceAccountID: id})
		// A service account always belongs to its organization, even in no group.
		acl.Join(organizationID)

		return &core.Caller{ACL: acl, ServiceAccountID: id, OrganizationID: organizationID, Expiry: account.Expiry}, true, nil
	}

	return nil, false, nil
}

// grantUser limits a user's rights to the organizations it is a user of, as identity
// finds a user's organizations from its organization users: there it belongs, even
// in no group, and holds what the groups that name it give; elsewhere, whatever the
// fixture granted, nothing. A user taken out of an organization loses it at once.
func (w *world) grantUser(acl *core.ACL, userID string) {
	user, ok := w.Users[userID]
	if !ok {
		return
	}

	members := map[string]string{}
	for _, record := range w.organizationUsersOf(userID) {
		members[record.Metadata.OrganizationID] = record.Metadata.ID
	}

	for organizationID := range acl.Organizations {
		if _, ok := members[organizationID]; !ok {
			acl.Leave(organizationID)
		}
	}

	for organizationID, id := range members {
		acl.Join(organizationID)
		core.GrantGroups(w.st, acl, organizationID, core.Member{UserID: id, Subject: user.Subject})
	}
}

// resolve works out what a token may do now.
func (s *Sandbox) resolve(token string, now time.Time) (*core.Caller, error) {
	return core.Resolve(s.core, s.world.st, token, now)
}
