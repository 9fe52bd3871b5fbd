package cloud

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// heldThing is a thing that a holder keeps from being deleted until it is released.
type heldThing struct {
	mu       sync.Mutex
	leaving  bool
	released bool
	deletes  int
	gone     bool
}

var inUse = &unikorn.APIError{StatusCode: http.StatusForbidden, Method: http.MethodDelete, Path: "/things/x"}

func (h *heldThing) object() Object[thing] {
	return Object[thing]{
		Kind: "thing", Users: "the servers in it",
		Get: func(context.Context, string) (*thing, error) {
			h.mu.Lock()
			defer h.mu.Unlock()

			if h.gone {
				return nil, notFound
			}

			return &thing{Metadata: unikorn.ReadMetadata{StaticMetadata: unikorn.StaticMetadata{
				WriteMetadata: unikorn.WriteMetadata{Name: "extra"}, ID: "x", CreationTime: time.Now().Add(-time.Hour),
			}}}, nil
		},
		Del: func(context.Context, string) error {
			h.mu.Lock()
			defer h.mu.Unlock()

			h.deletes++
			if !h.released {
				return inUse
			}

			h.gone = true

			return nil
		},
		HeldBy: func(*thing) []HolderSearch {
			return []HolderSearch{{Among: "instances", Find: func(context.Context) ([]Holder, error) {
				h.mu.Lock()
				defer h.mu.Unlock()

				if h.released {
					return nil, nil
				}

				return []Holder{{Kind: "instance", Name: "web", ID: "i-1", Leaving: h.leaving}}, nil
			}}}
		},
		Metadata: func(t *thing) *unikorn.ReadMetadata { return &t.Metadata },
	}
}

// A delete refused while nothing that holds the object goes away ends once the
// refusal has stood for HeldGrace, long before the delete's own time, naming what
// holds it.
func TestDeleteHeldFailsFastNamingTheHolders(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		h := &heldThing{}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()

		began := time.Now()
		err := h.object().Delete(ctx, testSession(0), "x", time.Time{})

		var held *HeldError
		require.ErrorAs(t, err, &held)
		assert.Less(t, time.Since(began), HeldGrace+time.Second)
		assert.GreaterOrEqual(t, time.Since(began), HeldGrace)
		assert.Equal(t, `instance "web" (i-1)`, held.HolderNames())
		assert.Equal(t, "extra", held.Name)
		assert.True(t, errors.Is(err, inUse))
	})
}

// The read lag, when longer than HeldGrace, is waited out: the refusal may come from
// a cache that has not seen the holder's release.
func TestDeleteHeldWaitsOutTheReadLag(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		h := &heldThing{}
		began := time.Now()

		var held *HeldError
		require.ErrorAs(t, h.object().Delete(t.Context(), testSession(3*time.Second), "x", time.Time{}), &held)
		assert.GreaterOrEqual(t, time.Since(began), 3*time.Second)
	})
}

// While what holds the object is being deleted, the delete is asked again until it
// is taken.
func TestDeleteHeldWaitsWhileTheHolderLeaves(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		h := &heldThing{leaving: true}

		go func() {
			time.Sleep(HeldGrace + time.Second)
			h.mu.Lock()
			h.released = true
			h.mu.Unlock()
		}()

		require.NoError(t, h.object().Delete(t.Context(), testSession(0), "x", time.Time{}))
		assert.True(t, h.gone)
	})
}

// A refusal still standing when the delete's time ends, its holder leaving all the
// while, is in use, not held.
func TestDeleteHeldByALeavingHolderUntilTheTimeout(t *testing.T) {
	t.Parallel()

	h := &heldThing{leaving: true}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()

	var inUseErr *InUseError
	require.ErrorAs(t, h.object().Delete(ctx, testSession(0), "x", time.Time{}), &inUseErr)
}

// A create whose wait ends before any read showed the object (interrupted at once)
// returns what the create answered, so that the caller saves it rather than losing
// track of it.
func TestCreateInterruptedBeforeAnyReadKeepsTheAnswer(t *testing.T) {
	t.Parallel()

	c := &things{}
	ctx, cancel := context.WithCancel(t.Context())

	post := func(context.Context) (*thing, error) {
		c.mu.Lock()
		defer c.mu.Unlock()

		c.created = &thing{Metadata: unikorn.ReadMetadata{
			StaticMetadata:     unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: "web"}, ID: "x", CreationTime: time.Now()},
			ProvisioningStatus: unikorn.ProvisioningProvisioning,
		}}
		// The caches show it only in an hour; Terraform is interrupted meanwhile.
		c.visibleAt = time.Now().Add(time.Hour)
		cancel()

		copied := *c.created

		return &copied, nil
	}

	made, err := c.object().Create(ctx, testSession(time.Hour), "web", c.list, post)
	require.Error(t, err)
	require.NotNil(t, made, "what the create made is returned with the error")
	assert.Equal(t, "x", made.Metadata.ID)
}

// A search for holders skips a list it cannot read and says so, names a holder two
// lists show once, and its words say whether the answer is whole.
func TestFindHoldersNamesWhatItSawAndWhereItCouldNotLook(t *testing.T) {
	t.Parallel()

	web := Holder{Kind: "instance", Name: "web", ID: "i-1"}
	share := Holder{Kind: "file storage", Name: "shared", ID: "fs-1"}
	forbidden := &unikorn.APIError{StatusCode: http.StatusForbidden, Description: "operation is not allowed by rbac"}
	failing := &unikorn.APIError{StatusCode: http.StatusServiceUnavailable, Method: http.MethodGet, Path: "/filestorage", Description: "unavailable"}

	listing := func(among string, err error, holders ...Holder) HolderSearch {
		return HolderSearch{Among: among, Find: func(context.Context) ([]Holder, error) { return holders, err }}
	}

	tests := map[string]struct {
		searches []HolderSearch
		want     string
	}{
		"every list read": {
			searches: []HolderSearch{listing("servers", nil, web), listing("file storage", nil, share)},
			want:     `instance "web" (i-1), file storage "shared" (fs-1)`,
		},
		"one list forbidden, the next still read": {
			searches: []HolderSearch{listing("servers", forbidden), listing("file storage", nil, share)},
			want:     `file storage "shared" (fs-1) (and perhaps more: the token may not list servers)`,
		},
		"one holder in two lists": {
			searches: []HolderSearch{listing("instances", nil, web), listing("servers", nil, web)},
			want:     `instance "web" (i-1)`,
		},
		"nothing seen, every list read": {
			searches: []HolderSearch{listing("servers", nil)},
			want:     "the servers on it (none that the token can see)",
		},
		"nothing seen, lists unread": {
			searches: []HolderSearch{listing("servers", forbidden), listing("file storage", failing)},
			want: "the servers on it (none that the token can see, but the token may not list servers; " +
				"the list of file storage failed (GET /filestorage: 503 service unavailable: unavailable))",
		},
	}

	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			held := &HeldError{Kind: "network", ID: "n-1", Users: "the servers on it", Holders: FindHolders(t.Context(), tt.searches)}
			assert.Equal(t, tt.want, held.HolderNames())
		})
	}
}
