// Package rbac is identity's access control (pkg/rbac and the ACL endpoints of
// pkg/handler): who a fixture token is and what it may do, worked out anew for every
// request from the groups, projects and roles as they are, and the ACL a caller reads
// of itself. Service accounts' tokens are their own family's.
package rbac

import (
	"maps"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's access control.
var Family = core.Family{Name: "rbac", Register: register}

func register(s *core.Server) error {
	s.Authenticate(fixtures{token: s.Options().Token})
	s.AuthenticateSystem(regionService.caller)

	s.Handle("GET /api/v1/acl", getACL)
	s.Handle("GET /api/v1/organizations/{organizationID}/acl", getOrganizationACL)

	return nil
}

// fixturePrincipal is who a fixture token stands for. What it may do is worked out for
// each request (principal), since groups and projects change.
type fixturePrincipal struct {
	// user is the identity user the token is, if any: the principal belongs to the
	// organizations it is a user of, and holds what their groups give it there.
	user string
	// legacy marks the fixture users whose rights predate roles: region's objects and
	// identity's quotas and allocations ask only whether they belong to the
	// organization and may use the project, as they always have. Identity's projects,
	// groups, service accounts and roles ask for the exact permission.
	legacy bool
	// service marks a service's system account; system is the account's name: a
	// service authenticates with a client certificate, and identity names it by the
	// certificate's common name (TokenClientCredentials), as the chart's
	// systemAccounts do. What it may do is its role's, as for anyone.
	service bool
	system  string
	// grant gives the rights that no group holds for it.
	grant func(st *core.Store, acl *core.ACL)
}

func mustRole(st *core.Store, id string) core.Role {
	role, ok := core.Get[core.Role](st, id)
	if !ok {
		panic("unknown fixture role " + id)
	}

	return *role
}

var (
	fixtureUser = fixturePrincipal{
		user: fixture.GlobalUserID, legacy: true,
		grant: func(st *core.Store, acl *core.ACL) {
			acl.GrantRole(fixture.OrganizationID, mustRole(st, fixture.UserRoleID), fixture.ProjectID, fixture.OtherProjectID)
		},
	}
	outsider  = fixturePrincipal{user: fixture.GlobalOutsiderID, legacy: true, grant: func(*core.Store, *core.ACL) {}}
	foreigner = fixturePrincipal{
		user: fixture.GlobalForeignID, legacy: true,
		grant: func(st *core.Store, acl *core.ACL) {
			acl.GrantRole(fixture.ForeignOrganizationID, mustRole(st, fixture.UserRoleID), fixture.ForeignProjectID)
		},
	}
	// serviceUser holds compute's role in the organizations the sandbox's compute
	// serves, the fixture and the empty one: every project there, made before or
	// after, as compute must reach any project its users make. (Real compute's role
	// is global; here it stays out of the foreign organization, as it always has.)
	// It may do what the role grants and no more: read networks, security groups and
	// SSH certificate authorities, but make none, nor load balancers or file storage.
	serviceUser = fixturePrincipal{
		service: true, system: "unikorn-compute",
		grant: func(st *core.Store, acl *core.ACL) {
			compute := mustRole(st, fixture.ComputeServiceRoleID)
			for _, organizationID := range []string{fixture.OrganizationID, fixture.EmptyOrganizationID} {
				acl.GrantRole(organizationID, core.Role{Organization: compute.Global})
			}
		},
	}
	// kubernetesService is the Kubernetes service's account, which the chart's
	// systemAccounts gives the kubernetes-service role, global as the chart has it.
	kubernetesService = fixturePrincipal{
		service: true, system: "unikorn-kubernetes",
		grant: func(st *core.Store, acl *core.ACL) {
			acl.GrantGlobal(mustRole(st, fixture.KubernetesServiceRoleID))
		},
	}
	// regionService is region's account, which the chart's systemAccounts gives the
	// region-service role, global: region calls identity on it without a token (its
	// allocations, project reads and references), naming the principal it acts for.
	regionService = fixturePrincipal{
		service: true, system: "unikorn-region",
		grant: func(st *core.Store, acl *core.ACL) {
			acl.GrantGlobal(mustRole(st, fixture.RegionServiceRoleID))
		},
	}
	administrator         = fixturePrincipal{user: fixture.GlobalAdminID, grant: func(*core.Store, *core.ACL) {}}
	platformAdministrator = fixturePrincipal{grant: func(st *core.Store, acl *core.ACL) {
		acl.GrantGlobal(mustRole(st, fixture.PlatformAdministratorRoleID))
	}}
)

// fixtures is the authenticator of the fixture principals' tokens.
type fixtures struct {
	// token is the fixture user's, which the sandbox's Options.Token may change.
	token string
}

// fixtureFor is the fixture principal a token names, if it names one.
func (f fixtures) fixtureFor(token string) (fixturePrincipal, bool) {
	switch token {
	case f.token:
		return fixtureUser, true
	case fixture.OutsiderToken:
		return outsider, true
	case fixture.ForeignToken:
		return foreigner, true
	case fixture.ServiceToken:
		return serviceUser, true
	case fixture.KubernetesServiceToken:
		return kubernetesService, true
	case fixture.AdminToken:
		return administrator, true
	case fixture.PlatformAdminToken:
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
	principal, ok := f.fixtureFor(token)
	if !ok {
		return nil, false, nil
	}

	return principal.caller(st), true, nil
}

// caller is what the principal may do in st.
func (p fixturePrincipal) caller(st *core.Store) *core.Caller {
	acl := core.NewACL()
	p.grant(st, acl)

	subject := p.system

	if p.user != "" {
		if user, ok := core.Get[unikorn.Subject](st, p.user); ok {
			subject = user.ID
			grantUser(st, acl, subject)
		}
	}

	return &core.Caller{Legacy: p.legacy, Service: p.service, ACL: acl, Subject: subject}
}

// grantUser limits a user's rights to the organizations it is a user of, as identity
// finds a user's organizations from its organization users: there it belongs, even in
// no group, and holds what the groups that name it give; elsewhere, whatever the
// fixture granted, nothing. A user taken out of an organization loses it at once.
func grantUser(st *core.Store, acl *core.ACL, subject string) {
	members := map[string]string{}

	for id, user := range core.All[unikorn.User](st) {
		if user.Spec.Subject == subject {
			members[user.Metadata.OrganizationID] = id
		}
	}

	for organizationID := range acl.Organizations {
		if _, ok := members[organizationID]; !ok {
			acl.Leave(organizationID)
		}
	}

	for _, organizationID := range slices.Sorted(maps.Keys(members)) {
		acl.Join(organizationID)
		core.GrantGroups(st, acl, organizationID, core.Member{UserID: members[organizationID], Subject: subject})
	}
}
