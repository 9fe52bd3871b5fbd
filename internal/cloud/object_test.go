package cloud

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// thing is a kind of object for the tests: a network or a load balancer would do.
type thing struct {
	Metadata unikorn.ReadMetadata
}

// things is a cloud of things whose answers the tests script.
type things struct {
	mu sync.Mutex
	// visibleAt is when the created thing appears in lists and reads (read lag).
	visibleAt time.Time
	created   *thing
	// goneAt is when reads of a deleted thing start answering 404.
	goneAt time.Time
	posts  int
	// slowMiss is how long a read that misses takes to answer, with what the cloud
	// held when it was asked, after the first fastMisses.
	slowMiss   time.Duration
	fastMisses int
	misses     int
}

var (
	lostAnswer = &unikorn.APIError{StatusCode: http.StatusBadGateway, Method: http.MethodPost, Path: "/things"}
	notFound   = &unikorn.APIError{StatusCode: http.StatusNotFound, Method: http.MethodGet, Path: "/things/x"}
)

func (c *things) object() Object[thing] {
	return Object[thing]{
		Kind: "thing",
		Get: func(context.Context, string) (*thing, error) {
			c.mu.Lock()

			now := time.Now()
			if c.created == nil || now.Before(c.visibleAt) || (!c.goneAt.IsZero() && !now.Before(c.goneAt)) {
				c.misses++
				slow := c.misses > c.fastMisses
				c.mu.Unlock()

				if slow {
					time.Sleep(c.slowMiss)
				}

				return nil, notFound
			}

			copied := *c.created

			c.mu.Unlock()

			return &copied, nil
		},
		Del:      func(context.Context, string) error { return nil },
		Metadata: func(t *thing) *unikorn.ReadMetadata { return &t.Metadata },
	}
}

func (c *things) list(ctx context.Context) ([]thing, error) {
	if found, err := c.object().Get(ctx, "x"); err == nil {
		return []thing{*found}, nil
	}

	return nil, nil
}

// post makes a thing that the caches show only after lag, and loses the answer.
func (c *things) post(lag time.Duration) func(context.Context) (*thing, error) {
	return func(context.Context) (*thing, error) {
		c.mu.Lock()
		defer c.mu.Unlock()

		c.posts++
		c.created = &thing{Metadata: unikorn.ReadMetadata{
			StaticMetadata:     unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: "web"}, ID: "x", CreationTime: time.Now()},
			ProvisioningStatus: unikorn.ProvisioningProvisioned,
		}}
		c.visibleAt = time.Now().Add(lag)

		return nil, lostAnswer
	}
}

func testSession(readLag time.Duration) *Session {
	return NewSession(nil, WithReadLag(readLag), WithPollPolicy(PollPolicy{Min: 5 * time.Millisecond, Max: 10 * time.Millisecond, Factor: 2}))
}

// A create whose answer was lost made a thing the lists do not show yet: it is
// looked for until the read lag has passed, found and adopted, and never posted again.
func TestALostCreateIsLookedForPastTheReadLag(t *testing.T) {
	t.Parallel()

	cloud := &things{}

	made, err := cloud.object().Create(t.Context(), testSession(300*time.Millisecond), "web", cloud.list, cloud.post(100*time.Millisecond))
	require.NoError(t, err)
	assert.Equal(t, "x", made.Metadata.ID)
	assert.Equal(t, 1, cloud.posts)
}

// Past the read lag, a thing that has not appeared is reported as possibly absent,
// with the lost answer, rather than created again.
func TestALostCreateThatNeverAppearsIsReported(t *testing.T) {
	t.Parallel()

	cloud := &things{}

	_, err := cloud.object().Create(t.Context(), testSession(50*time.Millisecond), "web", cloud.list, cloud.post(time.Hour))
	require.ErrorIs(t, err, lostAnswer)
	assert.Contains(t, err.Error(), `the answer to creating thing "web" was lost and none has appeared`)
	assert.Equal(t, 1, cloud.posts)
}

// After a delete, a 404 for a thing created within the read lag may be a cache that
// has not seen it yet: it is believed only once the lag has passed. For a thing
// created long before, it is believed at once.
func TestADeleteBelievesA404OnlyPastTheReadLag(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const readLag = 300 * time.Millisecond

		deleteAfter := func(created time.Time) time.Duration {
			cloud := &things{created: &thing{Metadata: unikorn.ReadMetadata{
				StaticMetadata: unikorn.StaticMetadata{ID: "x", CreationTime: created},
			}}}
			// The read before the delete still shows it, with time to spare on a busy
			// machine; reads answer 404 from 50 ms on (the wait's first few still show it).
			cloud.goneAt = time.Now().Add(50 * time.Millisecond)

			start := time.Now()
			require.NoError(t, cloud.object().Delete(t.Context(), testSession(readLag), "x", time.Time{}))

			return time.Since(start)
		}

		young := deleteAfter(time.Now())
		assert.GreaterOrEqual(t, young, readLag, "young: the 404 waited out the read lag")
		assert.Less(t, young, 2*readLag, "young: from the first 404, not from each")
		assert.Less(t, deleteAfter(time.Now().Add(-time.Hour)), readLag, "old: the 404 was definite at once")
	})
}

// What a refresh reads may have been made moments ago, and a cache not show it yet: a
// read rides out 404s within the read lag, and calls the thing gone only past it.
func TestAReadCallsAThingGoneOnlyPastTheReadLag(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const readLag = 300 * time.Millisecond

		cloud := &things{created: &thing{}, visibleAt: time.Now().Add(readLag / 3)}
		cloud.created.Metadata.ID = "x"
		s := testSession(readLag)

		read, err := cloud.object().Read(t.Context(), s, "x")
		require.NoError(t, err)
		assert.NotNil(t, read, "the thing the cache showed late was read, not called gone")

		cloud.goneAt = time.Now()
		start := time.Now()

		read, err = cloud.object().Read(t.Context(), s, "x")
		require.NoError(t, err)
		assert.Nil(t, read)
		assert.GreaterOrEqual(t, time.Since(start), readLag, "gone only once the 404 outlasted the read lag")
	})
}

// A thing this process has read (a refresh reads what a destroy then deletes) carries
// its creation time, as does one whose caller kept it (a resource's private state): a
// 404 right after its delete is believed at once when it is old, where a thing never
// read waits out the read lag.
func TestADeleteOfAThingOfKnownAgeBelievesA404AtOnce(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const readLag = 300 * time.Millisecond

		old := time.Now().Add(-time.Hour)

		deleteAfter := func(readFirst bool, kept time.Time) time.Duration {
			cloud := &things{created: &thing{Metadata: unikorn.ReadMetadata{
				StaticMetadata: unikorn.StaticMetadata{ID: "x", CreationTime: old},
			}}}
			s := testSession(readLag)
			object := cloud.object().Remembering(s)

			if readFirst {
				_, err := object.Read(t.Context(), s, "x")
				require.NoError(t, err)
			}

			// Gone as soon as it is deleted: no read of the wait shows it.
			cloud.goneAt = time.Now()

			start := time.Now()
			require.NoError(t, object.Delete(t.Context(), s, "x", kept))

			return time.Since(start)
		}

		assert.GreaterOrEqual(t, deleteAfter(false, time.Time{}), readLag, "never read: nothing says how old it is")
		assert.Less(t, deleteAfter(true, time.Time{}), readLag/2, "read before: old, so its 404 is definite")
		assert.Less(t, deleteAfter(false, old), readLag/2, "its creation time kept: old, so its 404 is definite")
	})
}

// Knowing the thing's age, the delete goes out without a read first.
func TestADeleteOfAThingOfKnownAgeReadsOnlyToWait(t *testing.T) {
	t.Parallel()

	var reads []string

	cloud := &things{created: &thing{Metadata: unikorn.ReadMetadata{
		StaticMetadata: unikorn.StaticMetadata{ID: "x", CreationTime: time.Now().Add(-time.Hour)},
	}}}
	object := cloud.object()
	get, del := object.Get, object.Del
	object.Get = func(ctx context.Context, id string) (*thing, error) {
		reads = append(reads, "read")

		return get(ctx, id)
	}
	object.Del = func(ctx context.Context, id string) error {
		reads = append(reads, "delete")
		cloud.mu.Lock()
		cloud.goneAt = time.Now()
		cloud.mu.Unlock()

		return del(ctx, id)
	}

	require.NoError(t, object.Delete(t.Context(), testSession(300*time.Millisecond), "x", cloud.created.Metadata.CreationTime))
	assert.Equal(t, []string{"delete", "read"}, reads, "the delete, then the read that sees it gone")
}

// A read right after a create may come from a cache that has not seen the thing yet:
// the wait for it to be provisioned rides out 404s within the read lag, and calls it
// gone only past it.
func TestAWaitRidesOutA404WithinTheReadLag(t *testing.T) {
	t.Parallel()

	cloud := &things{}
	_, _ = cloud.post(60 * time.Millisecond)(t.Context())

	made, err := cloud.object().WaitProvisioned(t.Context(), testSession(300*time.Millisecond), "x")
	require.NoError(t, err)
	assert.Equal(t, "x", made.Metadata.ID)

	hidden := &things{}
	_, _ = hidden.post(time.Hour)(t.Context())

	_, err = hidden.object().WaitProvisioned(t.Context(), testSession(50*time.Millisecond), "x")
	require.ErrorIs(t, err, notFound, "past the read lag, a 404 is an answer")
}

// A first DELETE whose answer is lost (a 5xx the client's retries did not cure) is
// asked again, not reported: a DELETE is safe to repeat.
func TestALostDeleteAnswerIsAskedAgain(t *testing.T) {
	t.Parallel()

	cloud := &things{created: &thing{Metadata: unikorn.ReadMetadata{
		StaticMetadata: unikorn.StaticMetadata{ID: "x", CreationTime: time.Now().Add(-time.Hour)},
	}}}
	object := cloud.object()
	deletes := 0
	object.Del = func(context.Context, string) error {
		deletes++
		if deletes == 1 {
			return &unikorn.APIError{StatusCode: http.StatusInternalServerError, Method: http.MethodDelete, Path: "/things/x"}
		}

		cloud.mu.Lock()
		cloud.goneAt = time.Now()
		cloud.mu.Unlock()

		return nil
	}

	require.NoError(t, object.Delete(t.Context(), testSession(0), "x", time.Time{}))
	assert.Equal(t, 2, deletes)
}

// A cache answers with what it held when it was asked: a 404 that arrives after the
// read lag has passed, to a read sent before, is no later news. Each wait that holds
// back a 404 within the read lag judges the read by when it was sent, so a slow miss
// straddling the lag's end calls nothing gone or absent.
func TestASlowMissSentWithinTheReadLagProvesNothing(t *testing.T) {
	t.Parallel()

	const (
		readLag  = 100 * time.Millisecond
		slowMiss = 250 * time.Millisecond
	)

	t.Run("a wait after a create", func(t *testing.T) {
		t.Parallel()

		cloud := &things{slowMiss: slowMiss}
		_, _ = cloud.post(readLag)(t.Context())

		made, err := cloud.object().WaitProvisioned(t.Context(), testSession(readLag), "x")
		require.NoError(t, err, "the first read's 404 came after the lag, but it was sent within it")
		assert.Equal(t, "x", made.Metadata.ID)
	})

	t.Run("a lost create looked for", func(t *testing.T) {
		t.Parallel()

		cloud := &things{slowMiss: slowMiss}

		made, err := cloud.object().Create(t.Context(), testSession(readLag), "web", cloud.list, cloud.post(readLag))
		require.NoError(t, err, "the first list came after the lag without it, but it was sent within it")
		assert.Equal(t, "x", made.Metadata.ID)
		assert.Equal(t, 1, cloud.posts)
	})

	t.Run("a delete of a young thing", func(t *testing.T) {
		t.Parallel()

		// Created just now and not yet in the caches; its deletion never ends. The
		// first read misses at once (the lag is counted from its answer), the next
		// one slowly.
		created := time.Now()
		cloud := &things{slowMiss: slowMiss, fastMisses: 1, visibleAt: created.Add(readLag), created: &thing{Metadata: unikorn.ReadMetadata{
			StaticMetadata: unikorn.StaticMetadata{ID: "x", CreationTime: created},
		}}}

		ctx, cancel := context.WithTimeout(t.Context(), 3*slowMiss)
		defer cancel()

		err := cloud.object().Delete(ctx, testSession(readLag), "x", created)
		require.Error(t, err, "called gone by a 404 sent before the caches could show it")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})

	t.Run("a read past the lag", func(t *testing.T) {
		t.Parallel()

		reads := 0
		err := testSession(0).PastReadLagUntil(t.Context(), time.Now().Add(readLag), func(context.Context) error {
			reads++
			if reads == 1 {
				time.Sleep(slowMiss)

				return notFound
			}

			return nil
		})
		require.NoError(t, err, "the first 404 came after settled, but was sent before it")
		assert.Equal(t, 2, reads)
	})
}
