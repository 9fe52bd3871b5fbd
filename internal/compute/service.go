package compute

import (
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

// Service is the instance façade over a session. It is safe for concurrent use, and
// is meant to be shared by everything in one provider process so that they share their
// reads of servers; the catalogue's reads they share through the session. The session's waits, poll grid and read
// lag are the ones every family of the façade uses.
type Service struct {
	*cloud.Session

	client     *unikorn.Client
	references *references
	// images waits for the images this family's snapshots make.
	images  *image.Service
	servers *sharedLists[unikorn.Server]
	// volumes checks what compute's back end attaches, and what holds a volume it
	// attaches: compute's instances, the only ones that attach volumes.
	volumes *volumes.Service
	// rights holds, per network, the probe of region's server API for the token (see
	// checkServiceRights): the rights of a token do not change within a run.
	rightsMu sync.Mutex
	rights   map[string]*rightsProbe
}

// NewService returns the instance façade over session.
func NewService(session *cloud.Session) *Service {
	client := session.Client()
	service := &Service{
		Session:    session,
		client:     client,
		references: newReferences(session),
		images:     image.NewService(session),
		servers:    newServerLists(client.ListServers, client.GetServer, DefaultReadGathering),
		volumes:    volumes.NewService(session).HeldByComputeInstances(),
		rights:     map[string]*rightsProbe{},
	}

	service.servers.shareRecent(service.lookupWindow(), client, session.Now)

	return service
}

// lookupWindow is how old a list a look-up may take (see sharedLists.readRecent): as
// old as the cloud's own reads may be, the read lag, for a list that this process
// took says no less than one the cloud would answer from its caches; and never less
// than one poll interval, no staler than a wait's reads. Terraform refreshes ten
// instances at a time, a few hundred milliseconds apart behind each other: a window
// of one interval cost a refresh of 100 instances four lists, and one of 1,000 sixty.
func (s *Service) lookupWindow() time.Duration {
	return max(s.Poll().Max, s.ReadLag())
}
