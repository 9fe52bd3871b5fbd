package core

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Caller is what a token may do during one request: its rights worked out from the
// groups and projects as they are when the request is served.
type Caller struct {
	// Legacy marks the fixture users whose rights predate roles: region's objects and
	// identity's quotas and allocations ask only whether they belong to the
	// organization and may use the project, as they always have.
	Legacy bool
	// Service marks a service's system account, which identity's userinfo names by
	// its certificate's common name in no organization.
	Service bool
	ACL     *ACL
	// ServiceAccountID and OrganizationID name the service account whose token this
	// is; empty for a user.
	ServiceAccountID string
	OrganizationID   string
	// Subject is the user the token stands for, as identity names it (its email); a
	// service principal's system account, as its client certificate's common name
	// names it (unikorn-compute); empty for a service account.
	Subject string
	// Expiry is when the token stops authenticating; zero for the fixture tokens,
	// which never expire.
	Expiry time.Time

	// every is every organization there is, which a global scope reaches.
	every []string
}

// IsMember reports whether the caller belongs to the organization.
func (c *Caller) IsMember(organizationID string) bool {
	return c.ACL.IsMember(organizationID)
}

// CanUse reports whether the project is in the caller's accessible set.
func (c *Caller) CanUse(organizationID, projectID string) bool {
	return c.ACL.CanReadProject(organizationID, projectID)
}

// Organizations are those the caller belongs to; a global scope reaches them all.
func (c *Caller) Organizations() []string {
	if len(c.ACL.Global) > 0 {
		return slices.Clone(c.every)
	}

	ids := make([]string, 0, len(c.ACL.Organizations))
	for id := range c.ACL.Organizations {
		ids = append(ids, id)
	}

	slices.Sort(ids)

	return ids
}

// Authenticator tells who a token is, as identity does for every service. Identity's
// families register theirs: the fixture principals, service accounts.
type Authenticator interface {
	// Plausible reports whether a token could be one of this authenticator's, before
	// the store is consulted.
	Plausible(token string) bool
	// Resolve works out what the token may do now; ok is false for a token that is
	// not this authenticator's.
	Resolve(st *Store, token string, now time.Time) (caller *Caller, ok bool, err error)
}

// Authenticate adds an authenticator, asked after those registered before it.
func (s *Server) Authenticate(a Authenticator) {
	s.authenticators = append(s.authenticators, a)
}

// PrincipalHeader is where a service names the principal it acts for when it calls
// another on its own account (identity's pkg/principal).
const PrincipalHeader = "X-Principal"

// AuthenticateSystem sets who a service calling on its own account is: a request
// without an Authorization header that names the principal it acts for. Identity
// takes such a request only over mutual TLS, through an ingress that passes the
// client certificate on, as the system account the certificate's common name names
// (pkg/middleware/openapi validateAuthentication). The sandbox speaks plain HTTP and
// has no certificate to read, so it trusts such a request to come from the one
// service that calls it so, whose account resolve makes: anyone who reaches the
// sandbox may act as that service, a shortcut no real identity takes. Without it, such
// a request is unauthenticated, as one without a token.
func (s *Server) AuthenticateSystem(resolve func(st *Store) *Caller) {
	s.system = resolve
}

// systemCall reports whether a request is a service's call on its own account.
func (s *Server) systemCall(r *http.Request) bool {
	return s.system != nil && r.Header.Get("Authorization") == "" && r.Header.Get(PrincipalHeader) != ""
}

// Unauthenticated is a token identity does not accept.
type Unauthenticated struct{ Cause string }

func (e *Unauthenticated) Error() string { return e.Cause }

// BearerToken takes the token from the Authorization header. The scheme is
// case-insensitive and the header must be exactly two space-separated parts, as in
// the real services.
func BearerToken(r *http.Request) (string, error) {
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

// plausibleToken reports whether a token could authenticate, before the store is
// consulted.
func (s *Server) plausibleToken(token string) bool {
	for _, a := range s.authenticators {
		if a.Plausible(token) {
			return true
		}
	}

	return false
}

// resolve works out what a token may do now. Callers hold mu; the store is the
// current one, not a lagging view: identity checks a token against what it issued.
func (s *Server) resolve(token string, now time.Time) (*Caller, error) {
	return Resolve(s, s.store, token, now)
}

// Resolve works out what a token may do now in st, as identity's token
// introspection does.
func Resolve(s *Server, st *Store, token string, now time.Time) (*Caller, error) {
	for _, a := range s.authenticators {
		caller, ok, err := a.Resolve(st, token, now)
		if err != nil {
			return nil, err
		}

		if ok {
			return reaching(st, caller), nil
		}
	}

	return nil, &Unauthenticated{"token validation failed"}
}

// callerOf is who sent a request, now: a service on its own account, or the bearer of
// token. Callers hold mu.
func (s *Server) callerOf(r *http.Request, token string, now time.Time) (*Caller, error) {
	if s.systemCall(r) {
		return reaching(s.store, s.system(s.store)), nil
	}

	return s.resolve(token, now)
}

// reaching gives caller every organization there is in st, which a global scope
// reaches.
func reaching(st *Store, caller *Caller) *Caller {
	for id := range All[unikorn.Organization](st) {
		caller.every = append(caller.every, id)
	}

	return caller
}

// ValidToken reports whether a token authenticates now, for a service that asks
// identity as any service would.
func (s *Server) ValidToken(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()

	_, err := s.resolve(token, s.now())

	return err == nil
}

// GrantGroups adds what the organization's groups give member in its projects, as
// they are in st, with the roles the chart's family exposes.
func GrantGroups(st *Store, acl *ACL, organizationID string, member Member) {
	var (
		groups   []Group
		projects []Project
	)

	for _, group := range All[unikorn.Group](st) {
		if group.Metadata.OrganizationID == organizationID {
			groups = append(groups, RBACGroup(group))
		}
	}

	for _, project := range All[unikorn.Project](st) {
		if project.Metadata.OrganizationID == organizationID {
			projects = append(projects, Project{ID: project.Metadata.ID, GroupIDs: project.Spec.GroupIDs})
		}
	}

	acl.GrantGroups(organizationID, member, groups, projects, func(id string) (Role, bool) {
		role, ok := Get[Role](st, id)
		if !ok {
			return Role{}, false
		}

		return *role, true
	})
}

// RBACGroup is what RBAC reads of a group.
func RBACGroup(group *unikorn.Group) Group {
	subjects := make([]string, 0, len(group.Spec.Subjects))
	for _, subject := range group.Spec.Subjects {
		subjects = append(subjects, subject.ID)
	}

	return Group{
		ID:                group.Metadata.ID,
		RoleIDs:           group.Spec.RoleIDs,
		UserIDs:           group.Spec.UserIDs,
		Subjects:          subjects,
		ServiceAccountIDs: group.Spec.ServiceAccountIDs,
	}
}

// Forbid turns identity's refusal into its 403.
func Forbid(err error) error {
	var denied *Denied
	if errors.As(err, &denied) {
		return Forbidden("%s", denied.Message)
	}

	return err
}
