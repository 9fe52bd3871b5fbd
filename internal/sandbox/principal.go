package sandbox

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
)

// principal is what a token may do during one request: its rights worked out from the
// groups and projects as they are when the request is served.
type principal struct {
	legacy  bool
	service bool
	acl     *identity.ACL
	// serviceAccountID and organizationID name the service account whose token this
	// is; empty for a user.
	serviceAccountID string
	organizationID   string
	// subject is the user a fixture token stands for, as identity names it (its email);
	// empty for a service account and for the service principal.
	subject string
	// expiry is when the token stops authenticating; zero for the fixture tokens,
	// which never expire.
	expiry time.Time
}

func (p *principal) isMember(organizationID string) bool {
	return p.acl.IsMember(organizationID)
}

// canUse reports whether the project is in the principal's accessible set.
func (p *principal) canUse(organizationID, projectID string) bool {
	return p.acl.CanReadProject(organizationID, projectID)
}

// organizations are those the principal belongs to; a global scope reaches them all.
func (p *principal) organizations() []string {
	if len(p.acl.Global) > 0 {
		ids := make([]string, 0, len(organizations))
		for _, organization := range organizations {
			ids = append(ids, organization.Metadata.ID)
		}

		return ids
	}

	ids := make([]string, 0, len(p.acl.Organizations))
	for id := range p.acl.Organizations {
		ids = append(ids, id)
	}

	slices.Sort(ids)

	return ids
}

// principalHeader is where a service names the principal it acts for when it calls
// identity on its own account (identity pkg/principal).
const principalHeader = "X-Principal"

// regionSystemAccount is the common name of region's client certificate, the system
// account identity's chart gives the region-service role.
const regionSystemAccount = "unikorn-region"

// isSystemAccount reports whether a request comes from a service on its own account:
// without an Authorization header, naming the principal it acts for. Identity takes
// such a request only over mutual TLS, through an ingress that passes on the client
// certificate, whose common name names the system account; the sandbox speaks plain
// HTTP, so it trusts the caller to be region, the one service that calls it so (its
// own compute calls with a bearer token). Anyone who can reach the sandbox can thus
// act as region: a simulation's shortcut, which a real identity never takes.
func isSystemAccount(r *http.Request) bool {
	return r.Header.Get("Authorization") == "" && r.Header.Get(principalHeader) != ""
}

// systemAccount is region's system account: what the chart's region-service role
// grants, everywhere.
func systemAccount() *principal {
	acl := identity.NewACL()
	acl.GrantGlobal(mustRole(identity.RegionServiceRoleID))

	return &principal{acl: acl, service: true, subject: regionSystemAccount}
}

// errUnauthenticated is a token identity does not accept.
type errUnauthenticated struct{ cause string }

func (e *errUnauthenticated) Error() string { return e.cause }

// bearerToken takes the token from the Authorization header. The scheme is
// case-insensitive and the header must be exactly two space-separated parts, as in
// the real services.
func bearerToken(r *http.Request) (string, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return "", errors.New("authorization header missing")
	}

	parts := strings.Split(header, " ")
	if len(parts) != 2 {
		return "", errors.New("authorization header malformed")
	}

	if !strings.EqualFold(parts[0], "bearer") {
		return "", errors.New("authorization scheme not allowed")
	}

	return parts[1], nil
}

// fixtureFor is the fixture principal a token names, if it names one.
func (s *Sandbox) fixtureFor(token string) (fixturePrincipal, bool) {
	switch token {
	case s.token:
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

// plausibleToken reports whether a token could authenticate, before the world is
// consulted: a fixture token, or one of a service account's form.
func (s *Sandbox) plausibleToken(token string) bool {
	_, ok := s.fixtureFor(token)

	return ok || identity.IsAccessToken(token)
}

// resolve works out what a token may do now. Callers hold mu; the world is the
// current one, not a lagging view: identity checks a token against what it issued.
func (s *Sandbox) resolve(token string, now time.Time) (*principal, error) {
	if fixture, ok := s.fixtureFor(token); ok {
		acl := identity.NewACL()
		fixture.grant(acl)

		subject := ""

		if fixture.user != "" {
			s.world.grantUser(acl, fixture.user)

			if user, ok := s.world.Users[fixture.user]; ok {
				subject = user.Subject
			}
		}

		return &principal{legacy: fixture.legacy, service: fixture.service, acl: acl, subject: subject}, nil
	}

	for _, account := range s.world.ServiceAccounts {
		if account.Token == "" || account.Token != token {
			continue
		}

		if !now.Before(account.Expiry) {
			return nil, &errUnauthenticated{"token expired"}
		}

		id, organizationID := account.Metadata.ID, account.Metadata.OrganizationID

		acl := identity.NewACL()
		s.world.grantGroups(acl, organizationID, identity.Member{ServiceAccountID: id})
		// A service account always belongs to its organization, even in no group.
		acl.Join(organizationID)

		return &principal{acl: acl, serviceAccountID: id, organizationID: organizationID, expiry: account.Expiry}, nil
	}

	return nil, &errUnauthenticated{"token validation failed"}
}

// grantUser limits a user's rights to the organizations it is a user of, as identity
// finds a user's organizations from its organization users: there it belongs, even
// in no group, and holds what the groups that name it give; elsewhere, whatever the
// fixture granted, nothing. A user taken out of an organization loses it at once.
func (w *world) grantUser(acl *identity.ACL, userID string) {
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
		w.grantGroups(acl, organizationID, identity.Member{UserID: id, Subject: user.Subject})
	}
}

// grantGroups adds what the organization's groups give member in its projects.
func (w *world) grantGroups(acl *identity.ACL, organizationID string, member identity.Member) {
	var (
		groups   []identity.Group
		projects []identity.Project
	)

	for _, group := range byID(w.Groups) {
		if group.Metadata.OrganizationID == organizationID {
			groups = append(groups, rbacGroup(group))
		}
	}

	for _, record := range byID(w.Projects) {
		if record.Project.Metadata.OrganizationID == organizationID {
			projects = append(projects, identity.Project{ID: record.Project.Metadata.ID, GroupIDs: record.Project.Spec.GroupIDs})
		}
	}

	acl.GrantGroups(organizationID, member, groups, projects)
}

// validToken reports whether a token authenticates now, for the compute service,
// which asks identity as any service would.
func (s *Sandbox) validToken(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()

	_, err := s.resolve(token, s.now())

	return err == nil
}

// forbidden turns identity's refusal into its 403.
func forbidden(err error) error {
	var denied *identity.Denied
	if errors.As(err, &denied) {
		return errForbidden("%s", denied.Message)
	}

	return err
}
