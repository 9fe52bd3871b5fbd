package volumes

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// holding is a region and compute that show one volume, attached while an instance
// other than the one attaching it asks for it or still shows it.
type holding struct {
	mu sync.Mutex
	// asks and shows are whether the other instance asks for the volume and whether
	// compute still shows it attached there; attached whether region says so.
	asks, shows, attached bool
	reads                 int
	// listFailsUntil is until when compute's list of instances answers 500.
	listFailsUntil time.Time
}

// forbidden answers a delete of the volume 403, as region does while it is in use
// and as RBAC does for a role that may only read it.
func (h *holding) forbidden(w http.ResponseWriter) {
	w.WriteHeader(http.StatusForbidden)
	_ = json.NewEncoder(w).Encode(unikorn.ErrorBody{Error: unikorn.ErrorForbidden, ErrorDescription: "forbidden"})
}

func (h *holding) set(asks, shows, attached bool) {
	h.mu.Lock()
	defer h.mu.Unlock()

	h.asks, h.shows, h.attached = asks, shows, attached
}

func (h *holding) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")

	switch r.URL.Path {
	case "/api/v2/volumes/v-1":
		if r.Method == http.MethodDelete {
			h.forbidden(w)

			return
		}

		h.reads++
		volume := unikorn.Volume{Spec: unikorn.VolumeSpec{NetworkID: "n-1", VolumeClassID: "c", SizeGiB: 1}}
		volume.Metadata.ID, volume.Metadata.Name, volume.Metadata.OrganizationID, volume.Metadata.ProjectID = "v-1", "data", "o-1", "p-1"

		if h.attached {
			now := time.Now()
			volume.Status.AttachedAt = &now
		}

		_ = json.NewEncoder(w).Encode(volume)
	case "/compute/api/v2/instances":
		if time.Now().Before(h.listFailsUntil) {
			w.WriteHeader(http.StatusInternalServerError)

			return
		}

		var other unikorn.Instance
		other.Metadata.ID, other.Metadata.Name = "i-2", "other"

		if h.asks {
			other.Spec.Volumes = &[]string{"v-1"}
		}

		if h.shows {
			other.Status.Volumes = []unikorn.InstanceVolumeStatus{{ID: "v-1", ProvisioningStatus: unikorn.ProvisioningProvisioned}}
		}

		_ = json.NewEncoder(w).Encode([]unikorn.Instance{other})
	default:
		http.NotFound(w, r)
	}
}

func newHolding(t *testing.T) (*holding, *Service) {
	t.Helper()

	h := &holding{}
	server := httptest.NewServer(h)
	t.Cleanup(server.Close)

	client, err := unikorn.NewClient(unikorn.Config{Endpoints: services.Endpoints{services.Region: server.URL, services.Compute: server.URL + "/compute"}, Token: "t"})
	require.NoError(t, err)

	fast := cloud.PollPolicy{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond, Factor: 1, Patience: time.Minute, Slow: 10 * time.Millisecond}
	session := cloud.NewSession(client, cloud.WithPollPolicy(fast), cloud.WithReadLag(100*time.Millisecond))

	return h, NewService(session).HeldByComputeInstances()
}

var at = Attaching{InstanceID: "i-1", OrganizationID: "o-1", ProjectID: "p-1", RegionID: "r-1", NetworkID: "n-1", FlavorID: "f-1"}

// A volume the other instance is letting go (it no longer asks for it) is waited for
// until region lets it go, however long that takes.
func TestAwaitFreeWaitsWhileTheHolderLetsGo(t *testing.T) {
	t.Parallel()

	h, service := newHolding(t)
	h.set(false, true, true)

	go func() {
		time.Sleep(cloud.HeldGrace + 500*time.Millisecond)
		h.set(false, false, false)
	}()

	began := time.Now()
	require.NoError(t, service.AwaitFree(t.Context(), at, []string{"v-1"}))
	assert.Greater(t, time.Since(began), cloud.HeldGrace, "the wait outlasted the grace while the holder let go")
}

// A volume another instance still asks for is refused once the grace has passed,
// naming the instance; a free one is not waited for.
func TestAwaitFreeRefusesAVolumeStillAskedFor(t *testing.T) {
	t.Parallel()

	h, service := newHolding(t)
	h.set(true, true, true)

	err := service.AwaitFree(t.Context(), at, []string{"v-1"})

	var attached *AttachedError
	require.ErrorAs(t, err, &attached)
	require.Len(t, attached.Holders, 1)
	assert.Equal(t, "i-2", attached.Holders[0].ID)
	assert.Contains(t, err.Error(), `instance "other" (i-2)`)

	h.set(false, false, false)
	require.NoError(t, service.AwaitFree(t.Context(), at, []string{"v-1"}))
}

// The other instance's update of the same apply, sent within the grace, releases it.
func TestAwaitFreeGivesAMoveTimeToStart(t *testing.T) {
	t.Parallel()

	h, service := newHolding(t)
	h.set(true, true, true)

	go func() {
		time.Sleep(time.Second)
		h.set(false, true, true)
		time.Sleep(time.Second)
		h.set(false, false, false)
	}()

	require.NoError(t, service.AwaitFree(t.Context(), at, []string{"v-1"}))
}

// A list of holders that fails says nothing of who holds the volume: the wait reads
// again rather than call the volume held by nobody it can name, and a holder letting
// go behind the outage is waited for.
func TestAwaitFreeRidesOutAFailedLookForHolders(t *testing.T) {
	t.Parallel()

	h, service := newHolding(t)
	h.set(false, true, true)

	h.mu.Lock()
	h.listFailsUntil = time.Now().Add(cloud.HeldGrace + time.Second)
	h.mu.Unlock()

	go func() {
		time.Sleep(cloud.HeldGrace + 2*time.Second)
		h.set(false, false, false)
	}()

	require.NoError(t, service.AwaitFree(t.Context(), at, []string{"v-1"}))
}

// A delete refused 403 is the volume in use while region says it is attached or an
// instance holds it; of a volume attached to nothing, once the grace has passed, it is
// the token's rights, which no detaching cures.
func TestDeleteForbiddenOfAFreeVolumeIsRights(t *testing.T) {
	t.Parallel()

	h, service := newHolding(t)
	h.set(true, true, true)

	err := service.Delete(t.Context(), "v-1", time.Now())
	require.ErrorAs(t, err, new(*cloud.HeldError), "held while attached")

	h.set(false, false, false)

	err = service.Delete(t.Context(), "v-1", time.Now())
	require.Error(t, err)
	assert.NotErrorAs(t, err, new(*cloud.HeldError), "not held by anything")
	assert.True(t, unikorn.IsForbidden(err), "the refusal itself: %v", err)
}
