package rbac

import (
	"maps"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
)

// aclRead is identity `acl`: what the caller may do, as identity's pkg/rbac GetACL
// computes it from the caller's roles. Lists without entries are left out, as
// identity leaves them out.
type aclRead struct {
	Global        []aclEndpoint     `json:"global,omitempty"`
	Organizations []aclOrganization `json:"organizations,omitempty"`
	// Organization and Projects are the scoped part, for the organization asked about.
	Organization *aclOrganization `json:"organization,omitempty"`
	Projects     []aclProject     `json:"projects,omitempty"`
}

type aclOrganization struct {
	ID        string        `json:"id"`
	Endpoints []aclEndpoint `json:"endpoints,omitempty"`
	Projects  []aclProject  `json:"projects,omitempty"`
}

type aclProject struct {
	ID        string        `json:"id"`
	Endpoints []aclEndpoint `json:"endpoints"`
}

type aclEndpoint struct {
	Name       string   `json:"name"`
	Operations []string `json:"operations"`
}

// aclEndpoints lists a scope by endpoint name, each endpoint's operations sorted.
func aclEndpoints(scope core.Scope) []aclEndpoint {
	var endpoints []aclEndpoint

	for _, name := range slices.Sorted(maps.Keys(scope)) {
		if operations := scope[name]; len(operations) > 0 {
			endpoints = append(endpoints, aclEndpoint{Name: name, Operations: slices.Sorted(slices.Values(operations))})
		}
	}

	return endpoints
}

// aclProjects lists the projects in which the organization's groups grant anything.
func aclProjects(organization *core.OrganizationACL) []aclProject {
	var projects []aclProject

	for _, id := range slices.Sorted(maps.Keys(organization.Projects)) {
		if endpoints := aclEndpoints(organization.Projects[id]); len(endpoints) > 0 {
			projects = append(projects, aclProject{ID: id, Endpoints: endpoints})
		}
	}

	return projects
}

// grantsAnything reports whether the organization gives the principal any permission:
// identity answers an empty ACL to a principal in none of the organization's groups.
func grantsAnything(organization *core.OrganizationACL) bool {
	return len(aclEndpoints(organization.Endpoints)) > 0 || len(aclProjects(organization)) > 0
}

// renderACL is the caller's ACL, scoped to organizationID when it is not empty. It
// follows GetACL: a platform administrator has only its global permissions; a service
// account its home organization, and the scoped part only when asked about that one;
// a user every organization it belongs to, and the scoped part of the one asked
// about, which it must belong to.
func renderACL(caller *core.Caller, organizationID string) (*aclRead, error) {
	acl := caller.ACL
	read := &aclRead{Global: aclEndpoints(acl.Global)}

	if len(read.Global) > 0 && len(acl.Organizations) == 0 {
		return read, nil
	}

	if organizationID != "" {
		organization, member := acl.Organizations[organizationID]

		switch {
		case caller.ServiceAccountID != "" && caller.OrganizationID != organizationID:
			// Another organization: the scoped part is skipped.
		case !member:
			return nil, core.RBACError("identity:acl", core.OpRead, "organization")
		case !grantsAnything(organization):
			return &aclRead{}, nil
		default:
			if endpoints := aclEndpoints(organization.Endpoints); len(endpoints) > 0 {
				read.Organization = &aclOrganization{ID: organizationID, Endpoints: endpoints}
			}

			read.Projects = aclProjects(organization)
		}
	}

	if caller.ServiceAccountID != "" {
		if organization := acl.Organizations[caller.OrganizationID]; organization == nil || !grantsAnything(organization) {
			return &aclRead{}, nil
		}
	}

	for _, id := range slices.Sorted(maps.Keys(acl.Organizations)) {
		organization := acl.Organizations[id]
		read.Organizations = append(read.Organizations, aclOrganization{
			ID: id, Endpoints: aclEndpoints(organization.Endpoints), Projects: aclProjects(organization),
		})
	}

	return read, nil
}

// getACL is identity's GET /api/v1/acl, which no scope narrows.
func getACL(req *core.Request) (*core.Reply, error) {
	read, err := renderACL(req.Caller, "")
	if err != nil {
		return nil, err
	}

	return core.OK(read), nil
}

// getOrganizationACL is identity's GET /api/v1/organizations/{organizationID}/acl.
func getOrganizationACL(req *core.Request) (*core.Reply, error) {
	read, err := renderACL(req.Caller, req.PathValue("organizationID"))
	if err != nil {
		return nil, err
	}

	return core.OK(read), nil
}
