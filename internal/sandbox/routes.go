package sandbox

import "net/http"

// registerRoutes maps every API operation to its handler. The patterns are the route
// templates that stats and fault rules are keyed by.
func (s *Sandbox) registerRoutes() {
	s.api = http.NewServeMux()

	// Every service publishes its protected resource metadata without authentication.
	s.api.HandleFunc("GET /.well-known/openid-protected-resource", protectedResource)
	s.routes["GET /.well-known/openid-protected-resource"] = true

	// Identity's OAuth2 endpoints and providers (oauth2.go, oauth2providers.go), and
	// its version, which the root answers; region's is under RegionPrefix (version.go).
	s.registerOAuth2Routes()
	s.handle("GET /api/version", identityVersion)

	// Region: catalogue.
	s.handle("GET /api/v1/organizations/{organizationID}/regions", s.listRegions)
	s.handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/flavors", s.listFlavors)
	s.handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/images", s.listImages)
	s.handle("POST /api/v1/organizations/{organizationID}/regions/{regionID}/images", s.createImage)
	s.handle("DELETE /api/v1/organizations/{organizationID}/regions/{regionID}/images/{imageID}", s.deleteImage)
	s.handle("GET /api/v2/regions/{regionID}/images", s.listImagesV2)

	// Region: networks, security groups, SSH certificate authorities.
	s.handle("GET /api/v2/networks", s.listNetworks)
	s.handle("POST /api/v2/networks", s.createNetwork)
	s.handle("GET /api/v2/networks/{networkID}", s.getNetwork)
	s.handle("PUT /api/v2/networks/{networkID}", s.updateNetwork)
	s.handle("DELETE /api/v2/networks/{networkID}", s.deleteNetwork)

	s.handle("GET /api/v2/securitygroups", s.listSecurityGroups)
	s.handle("POST /api/v2/securitygroups", s.createSecurityGroup)
	s.handle("GET /api/v2/securitygroups/{securityGroupID}", s.getSecurityGroup)
	s.handle("PUT /api/v2/securitygroups/{securityGroupID}", s.updateSecurityGroup)
	s.handle("DELETE /api/v2/securitygroups/{securityGroupID}", s.deleteSecurityGroup)

	s.handle("GET /api/v2/sshcertificateauthorities", s.listSSHCertificateAuthorities)
	s.handle("POST /api/v2/sshcertificateauthorities", s.createSSHCertificateAuthority)
	s.handle("GET /api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}", s.getSSHCertificateAuthority)
	s.handle("DELETE /api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}", s.deleteSSHCertificateAuthority)

	// Region: load balancers, in front of a network's servers.
	s.handle("GET /api/v2/loadbalancers", s.listLoadBalancers)
	s.handle("POST /api/v2/loadbalancers", s.createLoadBalancer)
	s.handle("GET /api/v2/loadbalancers/{loadBalancerID}", s.getLoadBalancer)
	s.handle("PUT /api/v2/loadbalancers/{loadBalancerID}", s.updateLoadBalancer)
	s.handle("DELETE /api/v2/loadbalancers/{loadBalancerID}", s.deleteLoadBalancer)
	// Region: file storage and its classes.
	s.handle("GET /api/v2/filestorage", s.listFileStorage)
	s.handle("POST /api/v2/filestorage", s.createFileStorage)
	s.handle("GET /api/v2/filestorage/{filestorageID}", s.getFileStorage)
	s.handle("PUT /api/v2/filestorage/{filestorageID}", s.updateFileStorage)
	s.handle("DELETE /api/v2/filestorage/{filestorageID}", s.deleteFileStorage)
	s.handle("GET /api/v2/filestorageclasses", s.listStorageClasses)

	// Region: servers, a service-to-service API.
	s.handleService(rbacServers, "GET /api/v2/servers", s.listServers)
	s.handleService(rbacServers, "POST /api/v2/servers", s.createServer)
	s.handleService(rbacServers, "GET /api/v2/servers/{serverID}", s.getServer)
	s.handleService(rbacServers, "PUT /api/v2/servers/{serverID}", s.updateServer)
	s.handleService(rbacServers, "DELETE /api/v2/servers/{serverID}", s.deleteServer)
	s.handleService(rbacServers, "POST /api/v2/servers/{serverID}/start", s.power(startAction))
	s.handleService(rbacServers, "POST /api/v2/servers/{serverID}/stop", s.power(stopAction))
	s.handleService(rbacServers, "POST /api/v2/servers/{serverID}/softreboot", s.power(rebootAction))
	s.handleService(rbacServers, "POST /api/v2/servers/{serverID}/hardreboot", s.power(rebootAction))
	s.handleService(rbacServers, "GET /api/v2/servers/{serverID}/sshkey", s.getServerSSHKey)
	s.handleService(rbacServers, "GET /api/v2/servers/{serverID}/consolesessions", s.getServerConsoleSession)
	s.handleService(rbacServers, "GET /api/v2/servers/{serverID}/consoleoutput", s.getServerConsoleOutput)
	s.handleService(rbacServers, "POST /api/v2/servers/{serverID}/snapshot", s.snapshotServer)

	// Identity.
	s.handle("GET /api/v1/organizations", s.listOrganizations)
	s.handle("GET /api/v1/organizations/{organizationID}", s.getOrganization)
	s.handle("PUT /api/v1/organizations/{organizationID}", s.updateOrganization)
	s.handle("GET /api/v1/organizations/{organizationID}/projects", s.listProjects)
	s.handle("POST /api/v1/organizations/{organizationID}/projects", s.createProject)
	s.handle("GET /api/v1/organizations/{organizationID}/projects/{projectID}", s.getProject)
	s.handle("PUT /api/v1/organizations/{organizationID}/projects/{projectID}", s.updateProject)
	s.handle("DELETE /api/v1/organizations/{organizationID}/projects/{projectID}", s.deleteProject)
	s.handle("PUT /api/v1/organizations/{organizationID}/projects/{projectID}/references/{reference}", s.addProjectReference)
	s.handle("DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/references/{reference}", s.removeProjectReference)
	s.handle("GET /api/v1/organizations/{organizationID}/groups", s.listGroups)
	s.handle("POST /api/v1/organizations/{organizationID}/groups", s.createGroup)
	s.handle("GET /api/v1/organizations/{organizationID}/groups/{groupid}", s.getGroup)
	s.handle("PUT /api/v1/organizations/{organizationID}/groups/{groupid}", s.updateGroup)
	s.handle("DELETE /api/v1/organizations/{organizationID}/groups/{groupid}", s.deleteGroup)
	s.handle("GET /api/v1/organizations/{organizationID}/serviceaccounts", s.listServiceAccounts)
	s.handle("POST /api/v1/organizations/{organizationID}/serviceaccounts", s.createServiceAccount)
	s.handle("PUT /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}", s.updateServiceAccount)
	s.handle("DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}", s.deleteServiceAccount)
	s.handle("POST /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}/rotate", s.rotateServiceAccount)
	s.handle("GET /api/v1/organizations/{organizationID}/roles", s.listRoles)
	s.handle("GET /api/v1/organizations/{organizationID}/users", s.listUsers)
	s.handle("POST /api/v1/organizations/{organizationID}/users", s.createUser)
	s.handle("PUT /api/v1/organizations/{organizationID}/users/{userID}", s.updateUser)
	s.handle("DELETE /api/v1/organizations/{organizationID}/users/{userID}", s.deleteUser)
	s.handle("GET /api/v1/acl", s.getACL)
	s.handle("GET /api/v1/organizations/{organizationID}/acl", s.getOrganizationACL)
	s.handle("GET /api/v1/organizations/{organizationID}/quotas", s.getQuotas)
	s.handle("PUT /api/v1/organizations/{organizationID}/quotas", s.setQuotas)
	s.handleService(rbacAllocations, "POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations", s.createAllocation)
	s.handleService(rbacAllocations, "GET /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.getAllocation)
	s.handleService(rbacAllocations, "PUT /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.updateAllocation)
	s.handleService(rbacAllocations, "DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.deleteAllocation)
}

// handleService registers an operation of a service-to-service API. Real Unikorn grants
// these to the compute service's own principal and to no user, whatever their role in
// the project, so every other caller is forbidden before anything is looked up.
func (s *Sandbox) handleService(endpoint, pattern string, handler apiHandler) {
	s.handle(pattern, func(req *request) (*reply, error) {
		if !req.caller.service {
			return nil, errNotPermitted(endpoint, operationOf(req.Method))
		}

		return handler(req)
	})
}

// operationOf is the RBAC operation a method performs.
func operationOf(method string) string {
	switch method {
	case http.MethodGet:
		return opRead
	case http.MethodPut:
		return opUpdate
	case http.MethodDelete:
		return opDelete
	default:
		return opCreate
	}
}
