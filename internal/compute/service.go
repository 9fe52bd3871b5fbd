package compute

import (
	"sync"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Service is the instance façade over a session. It is safe for concurrent use, and
// is meant to be shared by everything in one provider process so that they share their
// reads of servers; the catalogue's reads they share through the session. The session's waits, poll grid and read
// lag are the ones every family of the façade uses.
type Service struct {
	*cloud.Session

	client    *unikorn.Client
	catalogue *catalogue
	servers   *sharedLists[unikorn.Server]
	// rights holds, per network, the probe of region's server API for the token (see
	// checkServiceRights): the rights of a token do not change within a run.
	rightsMu sync.Mutex
	rights   map[string]*rightsProbe
}

// NewService returns the instance façade over session.
func NewService(session *cloud.Session) *Service {
	client := session.Client()
	service := &Service{
		Session:   session,
		client:    client,
		catalogue: newCatalogue(session),
		servers:   newServerLists(client.ListServers, DefaultReadGathering),
		rights:    map[string]*rightsProbe{},
	}

	// A look-up may take a list one poll interval old: no staler than a wait's reads.
	service.servers.shareRecent(session.Poll().Max, client)

	return service
}
