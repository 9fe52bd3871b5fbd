package sandbox

import (
	"encoding/json"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The kinds of the families still in this package.
var (
	projects = &core.Kind[projectRecord]{
		Name: "projects",
		Object: func(_ *core.Store, r *projectRecord) core.Object {
			return core.OrganizationObject(ObjectProject, &r.Project.Metadata)
		},
	}
	groups = &core.Kind[unikorn.Group]{
		Name: "groups",
		Object: func(_ *core.Store, g *unikorn.Group) core.Object {
			return core.OrganizationObject(ObjectGroup, &g.Metadata)
		},
	}
	serviceAccounts = &core.Kind[serviceAccountRecord]{
		Name: "serviceAccounts",
		Object: func(_ *core.Store, r *serviceAccountRecord) core.Object {
			return core.OrganizationObject(ObjectServiceAccount, &r.Metadata)
		},
	}
	organizationRecords = &core.Kind[unikorn.Organization]{Name: "organizations"}
	users               = &core.Kind[userRecord]{Name: "users"}
	organizationUsers   = &core.Kind[organizationUserRecord]{
		Name: "organizationUsers",
		Object: func(st *core.Store, r *organizationUserRecord) core.Object {
			object := core.OrganizationObject(ObjectUser, &r.Metadata)
			// Named by subject: an organization user's own name is identity's "undefined".
			if user, ok := users.Get(st, r.UserID); ok {
				object.Name = user.Subject
			}

			return object
		},
	}
	oauth2Providers = &core.Kind[oauth2Provider]{Name: "oauth2Providers"}
	computeState    = &core.Section[json.RawMessage]{Name: "compute"}
)

// world is the families' records in a store, by kind: the store's own maps, so that
// what changes them changes the store.
type world struct {
	st                *core.Store
	Allocations       map[string]*unikorn.Allocation
	Projects          map[string]*projectRecord
	Groups            map[string]*unikorn.Group
	ServiceAccounts   map[string]*serviceAccountRecord
	Organizations     map[string]*unikorn.Organization
	Users             map[string]*userRecord
	OrganizationUsers map[string]*organizationUserRecord
	OAuth2Providers   map[string]*oauth2Provider
}

func worldOf(st *core.Store) *world {
	return &world{
		st:                st,
		Allocations:       core.Allocations.Records(st),
		Projects:          projects.Records(st),
		Groups:            groups.Records(st),
		ServiceAccounts:   serviceAccounts.Records(st),
		Organizations:     organizationRecords.Records(st),
		Users:             users.Records(st),
		OrganizationUsers: organizationUsers.Records(st),
		OAuth2Providers:   oauth2Providers.Records(st),
	}
}
