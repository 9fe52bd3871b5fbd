package cloud

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A wait that outlasts its patience slows down, so that a long provisioning (a
// bare-metal machine takes many minutes) costs few reads.
func TestALongWaitSlowsDown(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		count := func(policy PollPolicy) int {
			session := &Session{poll: policy, pollEpoch: time.Now()}
			checks := 0

			ctx, cancel := context.WithTimeout(t.Context(), 400*time.Millisecond)
			defer cancel()

			err := session.WaitFor(ctx, "a slow change", func(context.Context) (bool, error) {
				checks++

				return false, nil
			})

			var wait *WaitError
			require.ErrorAs(t, err, &wait)

			return checks
		}

		steady := PollPolicy{Min: 5 * time.Millisecond, Max: 5 * time.Millisecond, Factor: 2}
		patient := steady
		patient.Patience, patient.Slow = 50*time.Millisecond, 80*time.Millisecond

		steadyChecks, patientChecks := count(steady), count(patient)
		assert.Greater(t, steadyChecks, 50, "a steady wait reads every 5 ms")
		assert.Less(t, patientChecks, 25, "after 50 ms the reads slow down to one every 80 ms")
	})
}

// steadySession polls every interval from now on, and learns how long changes take
// on a grid of narrow unless narrow is zero.
func steadySession(interval, narrow time.Duration) *Session {
	session := &Session{poll: PollPolicy{Min: interval, Max: interval, Factor: 1}, pollEpoch: time.Now()}
	if narrow > 0 {
		session.pacer = newPacer(narrow, interval)
	}

	return session
}

// A wait begun just before a tick does not read on it: the change it waits for was
// under way a moment ago. Its first read is on the first tick a whole interval later,
// and a change that outlasts the interval is seen done on the same tick as it would
// have been, one read fewer.
func TestAWaitFirstReadsAWholeIntervalAfterItBegins(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const (
			interval = 100 * time.Millisecond
			takes    = 300 * time.Millisecond
		)

		session := steadySession(interval, 0)

		// 50 ms before a tick: reading on every tick would read at 50, 150, 250 and 350 ms.
		time.Sleep(session.untilTick(time.Now(), interval) + interval - 50*time.Millisecond)

		start := time.Now()

		var reads []time.Duration

		require.NoError(t, session.WaitFor(t.Context(), "a change", func(context.Context) (bool, error) {
			reads = append(reads, time.Since(start))

			return time.Since(start) >= takes, nil
		}))

		require.NotEmpty(t, reads)
		assert.GreaterOrEqual(t, reads[0], interval, "the first read comes a whole interval after the wait began")
		assert.Len(t, reads, 3, "reads on the ticks at 150, 250 and 350 ms: %v", reads)
		assert.Less(t, reads[len(reads)-1], takes+interval, "the change is seen done on the first tick after it")
	})
}

// Waits for the same kind of change learn how long it takes: after a few, a wait
// reads when the change is done instead of at the next tick after it, and each wait
// reads at most twice more than its ticks would.
func TestWaitsLearnWhenAChangeIsDone(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const (
			interval = 100 * time.Millisecond
			takes    = 130 * time.Millisecond
		)

		session := steadySession(interval, interval/10)
		provisioning := Change{Kind: "ready", Variant: "standard"}

		// Each wait starts just after a tick, so that on ticks alone it would end 200 ms in.
		wait := func(c Change) (time.Duration, int) {
			time.Sleep(session.untilTick(time.Now(), interval) + time.Millisecond)

			start, checks := time.Now(), 0

			require.NoError(t, session.WaitForChange(t.Context(), "a change", c, func(context.Context, bool) (bool, error) {
				checks++

				return time.Since(start) >= takes, nil
			}))

			return time.Since(start), checks
		}

		first, _ := wait(provisioning)
		assert.GreaterOrEqual(t, first, takes)

		var last time.Duration

		for range 6 {
			var checks int

			last, checks = wait(provisioning)
			assert.LessOrEqual(t, checks, int(takes/interval)+1+2, "the ticks' reads and at most two more")
		}

		assert.Less(t, last, takes+interval/3, "the last wait read when the change was done, not on the next tick")

		// Another flavor has learnt nothing: its wait ends on a tick.
		_, checks := wait(Change{Kind: "ready", Variant: "large"})
		assert.LessOrEqual(t, checks, int(takes/interval)+1)
	})
}

// readsOfAWait waits on session for a change c that is done takes after the wait
// begins, and returns whether each of its reads expected the change done, and how
// long the wait took.
func readsOfAWait(t *testing.T, session *Session, c Change, takes time.Duration) (expected []bool, took time.Duration) {
	t.Helper()

	start := time.Now()
	require.NoError(t, session.WaitForChange(t.Context(), "a deletion", c, func(_ context.Context, expectDone bool) (bool, error) {
		expected = append(expected, expectDone)

		return time.Since(start) >= takes, nil
	}))

	return expected, time.Since(start)
}

// A wait tells its check which reads fall where the change has been seen done before:
// the quarters of a wide span, which mostly see it not done, are not, so that a
// deletion reads there what the waits of its wave share rather than each its own.
func TestAWaitExpectsTheChangeDoneOnlyFromTheEndOfItsSpan(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		// Reads at about 505, 605 and 705 ms (on the 5 ms grid), then just after 800 ms;
		// no tick before 2 s. The change is done at the span's end, nearly a tenth of a
		// second after the last quarter, so that a busy machine's late timer does not read
		// it there.
		session := steadySession(2*time.Second, 5*time.Millisecond)
		deletion := Change{Kind: "gone", Variant: "standard"}
		session.pacer.learn(deletion, 400*time.Millisecond, 800*time.Millisecond)

		expected, _ := readsOfAWait(t, session, deletion, 800*time.Millisecond)
		assert.Equal(t, []bool{false, false, false, true}, expected, "three quarters of the span, then its end")
	})
}

// A probe that falls on a tick takes the tick's place: one read there, which expects
// the change done, so that its check reads the one thing it waits for.
func TestAProbeOnATickTakesItsPlace(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		const (
			interval = 200 * time.Millisecond
			narrow   = 20 * time.Millisecond
		)

		session := steadySession(interval, narrow)
		deletion := Change{Kind: "gone", Variant: "standard"}
		// A narrow span, read at its end only: 400 ms in, and no tick before.
		session.pacer.learn(deletion, 380*time.Millisecond, 390*time.Millisecond)

		// Begun half a grid step before a tick, the probe (rounded up to the grid) falls on
		// the tick two intervals later. The grid is moved to the wait rather than the wait
		// slept to the grid, which a busy machine may oversleep.
		session.pollEpoch = time.Now().Add(narrow/2 - interval)

		start := time.Now()
		require.Less(t, session.untilTick(start, interval), narrow, "the wait must begin just before a tick")

		var expected []bool

		require.NoError(t, session.WaitForChange(t.Context(), "a deletion", deletion, func(_ context.Context, expectDone bool) (bool, error) {
			expected = append(expected, expectDone)

			return true, nil
		}))

		assert.Equal(t, []bool{true}, expected, "one read, where the change is expected done")
	})
}

// A change that takes longer (or shorter) than the span says widens the span to hold
// both, rather than forgetting what was learnt; one inside it narrows it.
func TestAPacerWidensItsSpanForAChangeOutsideIt(t *testing.T) {
	t.Parallel()

	p := newPacer(10*time.Millisecond, time.Second)
	c := Change{Kind: "gone", Variant: "standard"}

	probes, _ := p.probes(c)
	assert.Empty(t, probes, "nothing learnt, nothing to read early")

	p.learn(c, 100*time.Millisecond, 200*time.Millisecond)
	probes, notBefore := p.probes(c)
	assert.Equal(t, []probe{{125 * time.Millisecond, false}, {150 * time.Millisecond, false}, {175 * time.Millisecond, false},
		{205 * time.Millisecond, true}, {225 * time.Millisecond, true}, {245 * time.Millisecond, true}}, probes,
		"the quarters of a wide span, not expected done, then just after its end, expected done")
	assert.Equal(t, 100*time.Millisecond, notBefore, "no tick before the span")

	p.learn(c, 150*time.Millisecond, 195*time.Millisecond)
	p.learn(c, 190*time.Millisecond, 300*time.Millisecond)
	assert.Equal(t, span{above: 190 * time.Millisecond, within: 195 * time.Millisecond}, p.spans[c], "narrowed to 5 ms")
	probes, notBefore = p.probes(c)
	assert.Equal(t, 200*time.Millisecond, notBefore, "no tick before a narrow span's end")
	assert.Equal(t, []probe{{200 * time.Millisecond, true}, {220 * time.Millisecond, true}, {240 * time.Millisecond, true}}, probes,
		"half a narrow span after the earliest read that saw it done, where the next change, a little slower, is done too")

	p.learn(c, 250*time.Millisecond, 320*time.Millisecond)
	assert.Equal(t, span{above: 190 * time.Millisecond, within: 320 * time.Millisecond}, p.spans[c], "a slower one widens it")

	// A span whose quarters would be finer than the probes' grid is read at its end;
	// one whose quarters are a step of it, at its quarters.
	fourSteps := Change{Kind: "gone", Variant: "medium"}
	p.learn(fourSteps, 100*time.Millisecond, 140*time.Millisecond)
	probes, _ = p.probes(fourSteps)
	assert.Len(t, probes, 6, "40 ms wide, its quarters are 10 ms apart")

	slightly := Change{Kind: "gone", Variant: "small"}
	p.learn(slightly, 100*time.Millisecond, 135*time.Millisecond)
	probes, notBefore = p.probes(slightly)
	assert.Equal(t, []probe{{140 * time.Millisecond, true}, {160 * time.Millisecond, true}, {180 * time.Millisecond, true}}, probes,
		"35 ms wide, its quarters would read every 10 ms")
	assert.Equal(t, 140*time.Millisecond, notBefore)
}

// A wait plans its reads on the span as it begins; the other waits of its wave may
// narrow it before the wait reads, and its first read then sees the change done a
// little below the span. It widens the span by its width below that read, not down to
// nothing: the next waits read at the span's end, not at the quarters of the whole
// duration, each its own reads when the waits begin apart.
func TestAWaitDoneAtItsFirstReadBelowTheSpanWidensItByItsWidth(t *testing.T) {
	t.Parallel()

	p := newPacer(25*time.Millisecond, 250*time.Millisecond)
	c := Change{Kind: "updated", Variant: "standard"}
	ms := time.Millisecond

	p.learn(c, 1880*ms, 2040*ms)
	p.learn(c, 1940*ms, 1980*ms)
	p.learn(c, 0, 1939*ms)
	assert.Equal(t, span{above: 1899 * ms, within: 1980 * ms}, p.spans[c], "40 ms wide, down to 40 ms below that read")

	end := 1980*ms + 25*ms/2
	probes, notBefore := p.probes(c)
	assert.Equal(t, []probe{{end, true}, {end + 50*ms, true}, {end + 100*ms, true}}, probes, "read at its end only")
	assert.Equal(t, end, notBefore)

	p.learn(c, 1000*ms, 1500*ms)
	assert.Equal(t, span{above: 1000 * ms, within: 1980 * ms}, p.spans[c],
		"a read that saw it not done is what it says: the span widens to hold it")
}

// A change whose end is scattered over a poll interval or more (a cloud's caches that
// show each write after a random lag) has no span: narrowing would move its start up
// to the slowest, and the waits would see every quicker change only there. Once one
// of the last ten waits has seen it done earlier than another saw it not done, by an
// interval or more, a wait reads on the ticks alone, from a tick before the earliest
// end seen.
func TestAChangeWhoseEndIsScatteredIsReadOnTheTicks(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		p := newPacer(10*time.Millisecond, 100*time.Millisecond)
		c := Change{Kind: "gone", Variant: "standard"}

		p.learn(c, 0, 400*time.Millisecond)
		p.learn(c, 420*time.Millisecond, 480*time.Millisecond)

		probes, _ := p.probes(c)
		assert.NotEmpty(t, probes, "20 ms apart: still a span, read at its quarters")

		p.learn(c, 900*time.Millisecond, 950*time.Millisecond)
		p.learn(c, 800*time.Millisecond, 1000*time.Millisecond)
		require.Equal(t, span{above: 800 * time.Millisecond, within: 950 * time.Millisecond}, p.spans[c],
			"narrowed to the slow ones, whose span alone would be read from 800 ms")

		probes, notBefore := p.probes(c)
		assert.Empty(t, probes, "nothing but the ticks")
		assert.Equal(t, 300*time.Millisecond, notBefore, "a tick before the earliest end seen, 400 ms")

		// Waits that agree forget, once ten have followed, an end that lay apart: one that
		// began with its change half done, or a cloud that has since slowed down.
		for range 6 {
			p.learn(c, 930*time.Millisecond, 950*time.Millisecond)
		}

		probes, _ = p.probes(c)
		assert.Empty(t, probes, "the end seen at 400 ms is among the last ten")

		p.learn(c, 930*time.Millisecond, 950*time.Millisecond)
		p.learn(c, 930*time.Millisecond, 950*time.Millisecond)
		probes, notBefore = p.probes(c)
		assert.Equal(t, []probe{{955 * time.Millisecond, true}, {975 * time.Millisecond, true}, {995 * time.Millisecond, true}}, probes,
			"a span again, read at its end")
		assert.Equal(t, 955*time.Millisecond, notBefore)

		// A wait that begins there sees a change done early on the next tick, not at the
		// span's end.
		const interval = 50 * time.Millisecond

		session := steadySession(interval, 5*time.Millisecond)
		session.pacer.learn(c, 0, 200*time.Millisecond)
		session.pacer.learn(c, 600*time.Millisecond, 650*time.Millisecond)
		session.pacer.learn(c, 550*time.Millisecond, 700*time.Millisecond)

		expected, took := readsOfAWait(t, session, c, 250*time.Millisecond)
		assert.Less(t, took, 450*time.Millisecond, "seen a tick after it was done, at 250 ms")
		assert.NotContains(t, expected, true, "every read on a tick, shared with the other waits")
		assert.LessOrEqual(t, len(expected), 4, "no tick before 150 ms")
	})
}

// Waits tick on one grid, so that waits at different stages of their backoff still
// wake together.
func TestPollTicksNest(t *testing.T) {
	t.Parallel()

	epoch := time.Now()
	s := &Session{pollEpoch: epoch}

	assert.Equal(t, 150*time.Millisecond, s.untilTick(epoch.Add(250*time.Millisecond), 200*time.Millisecond))
	assert.Equal(t, 200*time.Millisecond, s.untilTick(epoch.Add(400*time.Millisecond), 200*time.Millisecond), "a tick is never now")

	for offset := time.Duration(0); offset < 2*time.Second; offset += 37 * time.Millisecond {
		now := epoch.Add(offset)
		long := now.Add(s.untilTick(now, 400*time.Millisecond))
		assert.Zero(t, long.Sub(epoch)%(200*time.Millisecond), "every 400 ms tick is a 200 ms tick")
	}
}
