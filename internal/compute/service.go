package compute

import (
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Service is the instance façade over a session. It is safe for concurrent use, and
// is meant to be shared by everything in one provider process so that they share its
// catalogue cache and their reads of servers. The session's waits, poll grid and read
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

// Option configures a Service.
type Option func(*Service)

// WithCatalogueTTL sets how long network, flavor and image look-ups are reused.
func WithCatalogueTTL(ttl time.Duration) Option {
	return func(s *Service) { s.catalogue.ttl = ttl }
}

// DefaultCatalogueTTL bounds how stale a cached look-up may be.
const DefaultCatalogueTTL = 5 * time.Minute

// NewService returns the instance façade over session.
func NewService(session *cloud.Session, options ...Option) *Service {
	client := session.Client()
	service := &Service{
		Session:   session,
		client:    client,
		catalogue: newCatalogue(client, DefaultCatalogueTTL),
		servers:   newServerLists(client.ListServers, DefaultReadGathering),
		rights:    map[string]*rightsProbe{},
	}

	for _, option := range options {
		option(service)
	}

	// A look-up may take a list one poll interval old: no staler than a wait's reads.
	service.servers.shareRecent(session.Poll().Max, client)

	return service
}
