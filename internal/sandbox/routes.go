package sandbox

import "net/http"

// registerRoutes maps every API operation to its handler. The patterns are the route
// templates that stats and fault rules are keyed by.
func (s *Sandbox) registerRoutes() {
	s.api = http.NewServeMux()

	// Every service publishes its protected resource metadata without authentication.
	s.api.HandleFunc("GET /.well-known/openid-protected-resource", protectedResource)
	s.routes["GET /.well-known/openid-protected-resource"] = true

	// Region: catalogue.
	s.handle("GET /api/v1/organizations/{organizationID}/regions", s.listRegions)
	s.handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/flavors", s.listFlavors)
	s.handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/images", s.listImages)
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

	// Region: servers.
	s.handle("GET /api/v2/servers", s.listServers)
	s.handle("POST /api/v2/servers", s.createServer)
	s.handle("GET /api/v2/servers/{serverID}", s.getServer)
	s.handle("PUT /api/v2/servers/{serverID}", s.updateServer)
	s.handle("DELETE /api/v2/servers/{serverID}", s.deleteServer)
	s.handle("POST /api/v2/servers/{serverID}/start", s.power(startAction))
	s.handle("POST /api/v2/servers/{serverID}/stop", s.power(stopAction))
	s.handle("POST /api/v2/servers/{serverID}/softreboot", s.power(rebootAction))
	s.handle("POST /api/v2/servers/{serverID}/hardreboot", s.power(rebootAction))
	s.handle("GET /api/v2/servers/{serverID}/sshkey", s.getServerSSHKey)
	s.handle("GET /api/v2/servers/{serverID}/consolesessions", s.getServerConsoleSession)
	s.handle("GET /api/v2/servers/{serverID}/consoleoutput", s.getServerConsoleOutput)
	s.handle("POST /api/v2/servers/{serverID}/snapshot", s.snapshotServer)

	// Identity.
	s.handle("GET /api/v1/organizations", s.listOrganizations)
	s.handle("GET /api/v1/organizations/{organizationID}", s.getOrganization)
	s.handle("GET /api/v1/organizations/{organizationID}/projects", s.listProjects)
	s.handle("GET /api/v1/organizations/{organizationID}/projects/{projectID}", s.getProject)
	s.handle("GET /api/v1/organizations/{organizationID}/quotas", s.getQuotas)
	s.handle("PUT /api/v1/organizations/{organizationID}/quotas", s.setQuotas)
	s.handle("POST /api/v1/organizations/{organizationID}/projects/{projectID}/allocations", s.createAllocation)
	s.handle("GET /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.getAllocation)
	s.handle("PUT /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.updateAllocation)
	s.handle("DELETE /api/v1/organizations/{organizationID}/projects/{projectID}/allocations/{allocationID}", s.deleteAllocation)
}
