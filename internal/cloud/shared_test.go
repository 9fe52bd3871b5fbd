package cloud

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Callers that share a load are independent: one that gives up stops waiting at
// once, and the load still answers the others.
func TestASharedLoadOutlivesTheCallerWhoStartedIt(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		s := NewSession(nil)
		release := make(chan struct{})

		var loads atomic.Int32

		load := func(ctx context.Context) (string, error) {
			loads.Add(1)
			<-release

			return "value", ctx.Err()
		}

		impatient, cancel := context.WithCancel(t.Context())
		first := make(chan error, 1)

		go func() {
			_, _, err := Shared(impatient, s, "key", time.Time{}, load)
			first <- err
		}()

		// The second caller joins the load the first one started.
		second := make(chan string, 1)

		go func() {
			value, _, err := Shared(t.Context(), s, "key", time.Time{}, load)
			assert.NoError(t, err)
			second <- value
		}()

		time.Sleep(20 * time.Millisecond)
		cancel()
		require.True(t, errors.Is(<-first, context.Canceled), "the impatient caller stops waiting")

		close(release)
		assert.Equal(t, "value", <-second, "the others still get the answer")
		assert.Equal(t, int32(1), loads.Load())
	})
}

// Many callers at once cost one read; a failed read is not kept, so the next caller
// reads again; a caller that needs a read begun after some moment gets one.
func TestSharedReadsAreReadOnceAndNeverKeepAMiss(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		s := NewSession(nil)

		var (
			loads   atomic.Int32
			missing atomic.Bool
		)

		load := func(context.Context) (int32, error) {
			n := loads.Add(1)
			time.Sleep(10 * time.Millisecond)

			if missing.Load() {
				return 0, notFound
			}

			return n, nil
		}

		var wg sync.WaitGroup

		for range 20 {
			wg.Go(func() {
				value, _, err := Shared(t.Context(), s, "key", time.Time{}, load)
				assert.NoError(t, err)
				assert.Equal(t, int32(1), value)
			})
		}

		wg.Wait()
		assert.Equal(t, int32(1), loads.Load(), "twenty callers, one read")

		value, began, err := Shared(t.Context(), s, "key", time.Time{}, load)
		require.NoError(t, err)
		assert.Equal(t, int32(1), value, "kept")

		value, _, err = Shared(t.Context(), s, "key", began.Add(time.Nanosecond), load)
		require.NoError(t, err)
		assert.Equal(t, int32(2), value, "a fresher read was asked for")

		s.Forget("key")
		missing.Store(true)

		for range 2 {
			_, _, err = Shared(t.Context(), s, "key", time.Time{}, load)
			require.ErrorIs(t, err, notFound)
		}

		assert.Equal(t, int32(4), loads.Load(), "each miss was read anew")
	})
}

// A read that began before this process changed the object cannot bring back what
// it read once the change has been made.
func TestAReadOlderThanAForgetIsNotKept(t *testing.T) {
	t.Parallel()

	s := NewSession(nil)
	reading := make(chan struct{})
	release := make(chan struct{})

	go func() {
		_, _, _ = Shared(context.Background(), s, "key", time.Time{}, func(context.Context) (string, error) {
			close(reading)
			<-release

			return "before the change", nil
		})
	}()

	<-reading
	s.Forget("key")
	close(release)

	value, _, err := Shared(t.Context(), s, "key", time.Time{}, func(context.Context) (string, error) {
		return "after the change", nil
	})
	require.NoError(t, err)
	assert.Equal(t, "after the change", value)
}

// What an object's reads show is kept for the shared reads of its kind, and a 404
// drops it: a refresh of a security group saves every instance's check a read.
func TestARememberingKindFeedsItsSharedReads(t *testing.T) {
	t.Parallel()

	// Without read lag, a 404 is believed at once, so that the reads can be counted.
	s := testSession(0)
	cloud := &things{created: &thing{}}
	cloud.created.Metadata.ID = "x"

	var gets atomic.Int32

	object := cloud.object()
	get := object.Get
	object.Get = func(ctx context.Context, id string) (*thing, error) {
		gets.Add(1)

		return get(ctx, id)
	}

	object = object.Remembering(s)

	read, err := object.Read(t.Context(), s, "x")
	require.NoError(t, err)
	require.NotNil(t, read)

	shared, err := object.Shared(t.Context(), s, "x", time.Time{})
	require.NoError(t, err)
	assert.Same(t, read, shared, "the refresh's read answers the check")
	assert.Equal(t, int32(1), gets.Load())

	cloud.goneAt = time.Now()

	read, err = object.Read(t.Context(), s, "x")
	require.NoError(t, err)
	assert.Nil(t, read)

	_, err = object.Shared(t.Context(), s, "x", time.Time{})
	require.ErrorIs(t, err, notFound, "gone, so asked again")
	assert.Equal(t, int32(3), gets.Load())
}
