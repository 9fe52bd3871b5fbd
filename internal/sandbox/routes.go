package sandbox

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/network"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/region"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/securitygroup"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/sshcertificateauthority"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// families are the sandbox's families, registered in this order: what a family's
// fixtures and advances need of another's comes first.
func (s *Sandbox) families() []core.Family {
	return []core.Family{
		{Name: "identity", Register: s.registerIdentity},
		region.Family,
		network.Family,
		securitygroup.Family,
		sshcertificateauthority.Family,
		image.Family,
		{Name: "region", Register: s.registerRegion},
		{Name: "compute", Register: s.registerCompute},
		kubernetes.Family,
	}
}

// registerIdentity registers identity's families still in this package.
func (s *Sandbox) registerIdentity(c *core.Server) error {
	s.core = c

	for _, kind := range []func(){
		func() { core.Register(c, organizationRecords) },
		func() { core.Register(c, users) },
		func() { core.Register(c, organizationUsers) },
		func() { core.Register(c, projects) },
		func() { core.Register(c, groups) },
		func() { core.Register(c, serviceAccounts) },
		func() { core.Register(c, oauth2Providers) },
	} {
		kind()
	}

	core.Expose(c, organizationRecords, core.View[unikorn.Organization, unikorn.Organization]{Show: func(o *unikorn.Organization) *unikorn.Organization { return o }})
	core.Expose(c, projects, core.View[projectRecord, unikorn.Project]{Show: func(r *projectRecord) *unikorn.Project { return &r.Project }})
	core.Expose(c, groups, core.View[unikorn.Group, unikorn.Group]{Show: func(g *unikorn.Group) *unikorn.Group { return g }})
	core.ExposeCatalogue(c, func() []core.Role { return identity.Roles }, func(r *core.Role) string { return r.ID }, core.View[core.Role, core.Role]{Show: func(r *core.Role) *core.Role { return r }})

	c.Declare(core.Service{
		Name: "identity", Document: openapi.Identity,
		Version: unikorn.ServiceVersion{Name: identityApplication, Version: identityRelease},
	})

	c.Authenticate(fixtures{token: c.Options().Token})
	c.Authenticate(serviceAccountTokens{})
	c.QuotaKinds(quotaKinds...)

	c.OnOpen(func() error {
		s.world = worldOf(c.Store())

		return nil
	})

	c.Fixture(func(st *core.Store) error {
		worldOf(st).addIdentityFixtures()

		return nil
	})
	c.Fixture(quotaFixture)

	// Version 1 kept no projects, groups or service accounts: the projects were a
	// fixed catalogue then, so they are the fixtures.
	c.Migrate(1, func(st *core.Store) error {
		worldOf(st).addIdentityFixtures()

		return nil
	})
	// Version 2 kept no users and no organizations: groups named the fixture users by
	// their IDs alone, the empty organization's administrator by its user ID in the
	// fixture one.
	c.Migrate(2, func(st *core.Store) error {
		worldOf(st).migrateUsers()

		return nil
	})

	c.AdvanceLast(func(st *core.Store, now time.Time) bool { return worldOf(st).advanceProjects(now) })

	// Identity's OAuth2 endpoints and providers (oauth2.go, oauth2providers.go).
	s.registerOAuth2Routes()

	// Identity.
	s.core.Handle("GET /api/v1/organizations", s.listOrganizations)
	s.core.Handle("GET /api/v1/organizations/{organizationID}", s.getOrganization)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}", s.updateOrganization)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/projects", s.listProjects)
	s.core.Handle("POST /api/v1/organizations/{organizationID}/projects", s.createProject)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/projects/{projectID}", s.getProject)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}/projects/{projectID}", s.updateProject)
	s.core.Handle("DELETE /api/v1/organizations/{organizationID}/projects/{projectID}", s.deleteProject)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/groups", s.listGroups)
	s.core.Handle("POST /api/v1/organizations/{organizationID}/groups", s.createGroup)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/groups/{groupid}", s.getGroup)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}/groups/{groupid}", s.updateGroup)
	s.core.Handle("DELETE /api/v1/organizations/{organizationID}/groups/{groupid}", s.deleteGroup)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/serviceaccounts", s.listServiceAccounts)
	s.core.Handle("POST /api/v1/organizations/{organizationID}/serviceaccounts", s.createServiceAccount)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}", s.updateServiceAccount)
	s.core.Handle("DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}", s.deleteServiceAccount)
	s.core.Handle("POST /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}/rotate", s.rotateServiceAccount)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/roles", s.listRoles)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/users", s.listUsers)
	s.core.Handle("POST /api/v1/organizations/{organizationID}/users", s.createUser)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}/users/{userID}", s.updateUser)
	s.core.Handle("DELETE /api/v1/organizations/{organizationID}/users/{userID}", s.deleteUser)
	s.core.Handle("GET /api/v1/acl", s.getACL)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/acl", s.getOrganizationACL)
	s.core.Handle("GET /api/v1/organizations/{organizationID}/quotas", s.getQuotas)
	s.core.Handle("PUT /api/v1/organizations/{organizationID}/quotas", s.setQuotas)
	s.core.HandleService(rbacAllocations, "POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations", s.createAllocation)
	s.core.HandleService(rbacAllocations, "GET /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.getAllocation)
	s.core.HandleService(rbacAllocations, "PUT /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.updateAllocation)
	s.core.HandleService(rbacAllocations, "DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.deleteAllocation)

	return nil
}

// registerRegion registers region's families still in this package.
func (s *Sandbox) registerRegion(c *core.Server) error {
	core.Register(c, servers)
	core.Register(c, loadBalancers)
	core.Register(c, fileStorage)

	core.Expose(c, servers, core.View[serverRecord, unikorn.Server]{Show: func(r *serverRecord) *unikorn.Server { return &r.Server }})

	c.Advance(advanceRegion)

	// Region: catalogue.

	// Region: security groups, SSH certificate authorities.

	// Region: load balancers, in front of a network's servers.
	s.core.Handle("GET /api/v2/loadbalancers", s.listLoadBalancers)
	s.core.Handle("POST /api/v2/loadbalancers", s.createLoadBalancer)
	s.core.Handle("GET /api/v2/loadbalancers/{loadBalancerID}", s.getLoadBalancer)
	s.core.Handle("PUT /api/v2/loadbalancers/{loadBalancerID}", s.updateLoadBalancer)
	s.core.Handle("DELETE /api/v2/loadbalancers/{loadBalancerID}", s.deleteLoadBalancer)
	// Region: file storage and its classes.
	s.core.Handle("GET /api/v2/filestorage", s.listFileStorage)
	s.core.Handle("POST /api/v2/filestorage", s.createFileStorage)
	s.core.Handle("GET /api/v2/filestorage/{filestorageID}", s.getFileStorage)
	s.core.Handle("PUT /api/v2/filestorage/{filestorageID}", s.updateFileStorage)
	s.core.Handle("DELETE /api/v2/filestorage/{filestorageID}", s.deleteFileStorage)
	s.core.Handle("GET /api/v2/filestorageclasses", s.listStorageClasses)

	// Region: servers, a service-to-service API.
	s.core.HandleService(rbacServers, "GET /api/v2/servers", s.listServers)
	s.core.HandleService(rbacServers, "POST /api/v2/servers", s.createServer)
	s.core.HandleService(rbacServers, "GET /api/v2/servers/{serverID}", s.getServer)
	s.core.HandleService(rbacServers, "PUT /api/v2/servers/{serverID}", s.updateServer)
	s.core.HandleService(rbacServers, "DELETE /api/v2/servers/{serverID}", s.deleteServer)
	s.core.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/start", s.power(startAction))
	s.core.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/stop", s.power(stopAction))
	s.core.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/softreboot", s.power(rebootAction))
	s.core.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/hardreboot", s.power(rebootAction))
	s.core.HandleService(rbacServers, "GET /api/v2/servers/{serverID}/sshkey", s.getServerSSHKey)
	s.core.HandleService(rbacServers, "GET /api/v2/servers/{serverID}/consolesessions", s.getServerConsoleSession)
	s.core.HandleService(rbacServers, "GET /api/v2/servers/{serverID}/consoleoutput", s.getServerConsoleOutput)
	s.core.HandleService(rbacServers, "POST /api/v2/servers/{serverID}/snapshot", s.snapshotServer)

	s.registerRegionControlRoutes()

	return nil
}
