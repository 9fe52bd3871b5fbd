package cloud

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// read is one read of a wait: when it began, counted from the wait's start, and
// whether the wait expected the change done there.
type read struct {
	at         time.Duration
	expectDone bool
}

// waitOnce waits on session for c, whose change is done takes after the wait begins,
// and returns its reads.
func waitOnce(t *testing.T, session *Session, c Change, takes time.Duration) []read {
	t.Helper()

	var reads []read

	start := time.Now()
	require.NoError(t, session.WaitForChange(t.Context(), "a deletion", c, func(_ context.Context, expectDone bool) (bool, error) {
		reads = append(reads, read{time.Since(start), expectDone})

		return time.Since(start) >= takes, nil
	}))

	return reads
}

// The first wait of a kind of change knows nothing of how long it takes: after its
// first read, a whole interval in, it reads twice as often for a few intervals, so
// that a deletion of a small configuration is seen done a quarter of a tick sooner on
// average. Once the kind is known, and past those intervals, the ticks are as before.
func TestAWaitForAChangeNothingIsKnownOfReadsTwiceAsOftenAtFirst(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		session := steadySession(100*time.Millisecond, 10*time.Millisecond)
		gone := Change{Kind: "gone", Variant: "small"}

		reads := waitOnce(t, session, gone, 230*time.Millisecond)
		assert.Equal(t, []read{{100 * time.Millisecond, false}, {150 * time.Millisecond, false}, {200 * time.Millisecond, false}, {250 * time.Millisecond, false}},
			reads, "on the ticks alone it would read at 100, 200 and 300 ms")

		// A slow change of another kind, begun on a tick: half ticks over the first
		// 400 ms only.
		time.Sleep(session.untilTick(time.Now(), 100*time.Millisecond))

		var at []time.Duration
		for _, r := range waitOnce(t, session, Change{Kind: "ready", Variant: "large"}, 700*time.Millisecond) {
			at = append(at, r.at)
		}

		assert.Equal(t, []time.Duration{100, 150, 200, 250, 300, 350, 400, 500, 600, 700}, millis(at))

		// Known now, the first kind is read where it was seen done, and not in between.
		reads = waitOnce(t, session, gone, 230*time.Millisecond)
		for _, r := range reads {
			assert.NotContains(t, []time.Duration{150 * time.Millisecond, 250 * time.Millisecond}, r.at, "no half tick once the kind is known: %v", reads)
		}
	})
}

// The waits of a first wave begin knowing nothing of their change; once one of them
// has seen its change done, the others read where it did, not at the next tick after.
func TestTheFirstWaveReadsWhereItsFirstWaitSawTheChangeDone(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		session := steadySession(100*time.Millisecond, 10*time.Millisecond)
		gone := Change{Kind: "gone", Variant: "standard"}

		var (
			group        sync.WaitGroup
			quick, later []read
		)

		group.Go(func() { quick = waitOnce(t, session, gone, 230*time.Millisecond) })
		group.Go(func() { later = waitOnce(t, session, gone, 270*time.Millisecond) })
		group.Wait()

		require.NotEmpty(t, quick)
		assert.Equal(t, 250*time.Millisecond, quick[len(quick)-1].at, "the quick one is seen done on a half tick")

		require.NotEmpty(t, later)
		last := later[len(later)-1]
		assert.Less(t, last.at, 300*time.Millisecond, "the later one does not wait for the next half tick: %v", later)
		assert.True(t, last.expectDone, "it read where the change was seen done: %v", later)
	})
}

// A first wait of a kind of change reads once where a change of the same kind (a
// deletion of another flavor, or of another kind of object) was seen done, besides its
// ticks: a cloud's deletions often take about as long as each other.
func TestAFirstWaitReadsWhereALikeChangeWasSeenDone(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		session := steadySession(100*time.Millisecond, 10*time.Millisecond)
		session.pacer.learn(Change{Kind: "gone", Variant: "instance"}, 215*time.Millisecond, 220*time.Millisecond)
		session.pacer.learn(Change{Kind: "ready", Variant: "instance"}, 0, 90*time.Millisecond)

		reads := waitOnce(t, session, Change{Kind: "gone", Variant: "security group"}, 222*time.Millisecond)
		assert.Equal(t, []read{{100 * time.Millisecond, false}, {150 * time.Millisecond, false}, {200 * time.Millisecond, false}, {230 * time.Millisecond, false}},
			reads, "read at 230 ms, where an instance's deletion was seen done, not at the half tick of 250 ms, nor at 90 ms, when another kind of change was")
	})
}

// millis returns durations in whole milliseconds, for readable comparisons.
func millis(durations []time.Duration) []time.Duration {
	out := make([]time.Duration, len(durations))
	for i, d := range durations {
		out[i] = d / time.Millisecond
	}

	return out
}

// The deletes of a kind of object learn how long it takes to go, as an instance's
// do: the first reads on the ticks (and their halves), the next when its object is
// likely gone.
func TestTheDeletesOfAKindLearnHowLongItTakesToGo(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const takes = 230 * time.Millisecond

		s := NewSession(nil, WithPollPolicy(PollPolicy{Min: 100 * time.Millisecond, Max: 100 * time.Millisecond, Factor: 1}))
		s.pollEpoch = time.Now()

		deleteOne := func() (reads int, took time.Duration) {
			cloud := &things{created: &thing{Metadata: unikorn.ReadMetadata{
				StaticMetadata: unikorn.StaticMetadata{ID: "x", CreationTime: time.Now().Add(-time.Hour)},
			}}}
			object := cloud.object()
			get := object.Get
			object.Get = func(ctx context.Context, id string) (*thing, error) {
				reads++

				return get(ctx, id)
			}
			object.Del = func(context.Context, string) error {
				cloud.goneAt = time.Now().Add(takes)

				return nil
			}

			start := time.Now()
			require.NoError(t, object.Delete(t.Context(), s, "x", cloud.created.Metadata.CreationTime))

			return reads, time.Since(start)
		}

		reads, first := deleteOne()
		assert.Equal(t, 4, reads, "read at 100 ms, then every 50 ms")
		assert.Equal(t, 250*time.Millisecond, first, "seen gone on a half tick, not at 300 ms")

		// Begun on a tick too: the ticks alone would read at 100, 200 and 300 ms.
		reads, second := deleteOne()
		assert.LessOrEqual(t, reads, 2, "read in the span where the first was seen gone")
		assert.Less(t, second, takes+20*time.Millisecond, "read when it is gone: %v", second)
	})
}
