package cloud

import (
	"sync"
	"time"
)

// Change names a kind of change whose duration a Session learns: what is waited for
// (Kind), and what decides how long it takes (Variant, such as the flavor of an
// instance, whose size decides how long a machine takes). The zero Change is not
// learnt.
type Change struct {
	Kind    string
	Variant string
}

// span bounds how long a change takes, counted from the start of its wait to the start
// of a read that sees it done: more than above, at most within.
type span struct {
	above, within time.Duration
}

// pacer learns, from the waits of one provider process, how long each kind of change
// takes, so that a wait can read when its change is likely to be done instead of at
// the next tick after it. Terraform creates instances in waves of its parallelism,
// each taking as long as the one before: without this, every wave would wait for the
// next poll tick after its provisioning, on average half an interval.
//
// A read that sees the change not yet done raises the lower bound, one that sees it
// done lowers the upper bound. While the span is wide, a wait reads at its quarters
// (and, not done there, at its end), so that one wave narrows it fourfold: the
// waits of a wave read together, so a probe costs one shared list per wave, and
// halving took the first four waves of an apply to narrow a tick's span, each read
// tens of milliseconds after its change was done. Once a quarter would be finer than
// the grid the probes fall on, a wait reads at the end only: its quarters would read
// at every point of that grid, and in a realistic destroy of 100, spans widened to
// 50-80 ms by a change a little slower cost a list at each, ten requests in a wave
// to learn what its end read tells a few tens of milliseconds later. Changes do not
// all take the same time (a cloud under load, a
// controller that picks work up late): a wait not done at the end of the span reads
// twice more shortly after it, and a change that falls outside the span widens it to
// hold both, to be narrowed again. The reads on the poll grid are shared between
// waits, and see failures early; but before the span begins they can only see the
// change not done, so a wait makes none there (see WaitForChange).
//
// All of that holds for a change that takes about as long each time. One whose end
// recent waits have seen scattered over a poll interval or more (a cloud whose caches
// show each write after a random lag of up to seconds) has no span to learn:
// narrowing moves the span's start up to the slow ones, no wait reads before it any
// more, and every change done earlier is seen only there. For such a change a wait
// reads on the shared ticks from a tick before the earliest a recent wait saw it
// done, and nowhere else: each tick's list serves every wait of the wave.
type pacer struct {
	// narrow is the grid the probes fall on; a span narrower than four of it is read
	// at its end only.
	narrow time.Duration
	// scattered is how far apart recent waits must see a change's end for it to
	// have no span: one saw it done earlier than another saw it not done, by that
	// much or more.
	scattered time.Duration

	mu     sync.Mutex
	spans  map[Change]span
	recent map[Change]*recentWaits
	// learnt are closed when their change is first learnt (see unknown).
	learnt map[Change]chan struct{}
}

func newPacer(narrow, scattered time.Duration) *pacer {
	return &pacer{
		narrow: narrow, scattered: scattered,
		spans: map[Change]span{}, recent: map[Change]*recentWaits{}, learnt: map[Change]chan struct{}{},
	}
}

// unknown returns, while nothing is known of how long c takes, a channel closed once
// a wait has learnt it; nil when it is known, or c is not learnt. The waits of the
// first wave of a kind all begin knowing nothing, and read on the poll ticks; once
// one of them sees its change done, the others, a few milliseconds behind it, can
// read when theirs is likely done too rather than at the next tick after it (a
// quarter of a second later, a tenth of a small destroy).
func (p *pacer) unknown(c Change) <-chan struct{} {
	if p == nil || c == (Change{}) {
		return nil
	}

	p.mu.Lock()
	defer p.mu.Unlock()

	if _, ok := p.spans[c]; ok {
		return nil
	}

	if p.learnt[c] == nil {
		p.learnt[c] = make(chan struct{})
	}

	return p.learnt[c]
}

// recentWaits keeps what the last waits for a change saw, each wait's own span. Ten
// are a wave of Terraform's default parallelism: the ends of a wave scattered by a
// random lag keep their change without a span, while a cloud that slowed down
// between waves, or one wait that began with its change half done (a delete sent
// again to a server already going), is forgotten within a wave, the span having
// widened to hold it meanwhile.
type recentWaits struct {
	seen  [10]span
	count int
	next  int
}

func (r *recentWaits) add(s span) {
	r.seen[r.next] = s
	r.next = (r.next + 1) % len(r.seen)
	r.count = min(r.count+1, len(r.seen))
}

// scatter returns the earliest a recent wait saw the change done, and how much later
// than that another saw it not done (zero or less when they agree).
func (r *recentWaits) scatter() (earliestDone, spread time.Duration) {
	var latestNotDone time.Duration

	for i, s := range r.seen[:r.count] {
		if i == 0 || s.within < earliestDone {
			earliestDone = s.within
		}

		latestNotDone = max(latestNotDone, s.above)
	}

	return earliestDone, latestNotDone - earliestDone
}

// probe is a read a wait makes besides its poll ticks: at, counted from the start of
// the wait; expectDone when the change has been seen done by then before (the end of
// the span and after), not at a quarter of a span still wide, where the read narrows
// the span as much as it looks for the change.
type probe struct {
	at         time.Duration
	expectDone bool
}

// probes returns when, counted from the start of a wait for c, the wait should read
// besides its poll ticks, in order, and when its ticks may begin: where the span
// begins, before which a read would see c not done, or for a span read at its end
// only, that end: a tick a few tens of milliseconds before it can tell nothing that
// the end does not tell a moment later, and costs a read of its own (one wait in ten
// of a destroy had one). Nothing while nothing is known of c; for a change whose end
// is scattered, nothing but the ticks, from a tick before the earliest end seen.
func (p *pacer) probes(c Change) (probes []probe, notBefore time.Duration) {
	if p == nil || c == (Change{}) {
		return nil, 0
	}

	p.mu.Lock()
	defer p.mu.Unlock()

	s, ok := p.spans[c]

	if !ok {
		if end, ok := p.likeIt(c); ok {
			return []probe{{end, false}}, 0
		}

		return nil, 0
	}

	if earliestDone, spread := p.recent[c].scatter(); spread >= p.scattered {
		return nil, max(earliestDone-p.scattered, 0)
	}

	// The end is read half a step of the probes' grid after it (and the grid rounds
	// up): within is the earliest read that has seen the change done, and changes
	// differ by a few milliseconds (as do this process's clock and the cloud's), so a
	// read right at it came too early for one deletion in ten of a destroy, each read
	// again 50 ms later. Late changes are caught a few steps after the end, not a
	// tick. While a span is read at its end only, within cannot move earlier: a change
	// that becomes quicker is seen there, up to the span's width late, as it was
	// before the span narrowed.
	end := s.within + p.narrow/2
	late := []probe{{end, true}, {end + 2*p.narrow, true}, {end + 4*p.narrow, true}}

	if width := s.within - s.above; width >= 4*p.narrow {
		quarter := width / 4

		return append([]probe{{s.above + quarter, false}, {s.above + 2*quarter, false}, {s.above + 3*quarter, false}}, late...), s.above
	}

	return late, end
}

// likeIt returns, for a change c nothing is known of, the end of the narrowest span
// learnt for a change of the same kind (a deletion of another flavor, or of another
// kind of object), for one read there: the changes of a cloud's kind often take about
// as long, and where they do, that read sees c done up to a tick sooner; where they do
// not, it costs one read, shared by c's first wave, once per process. A span whose end
// is scattered says nothing of when the next change ends. The caller holds p.mu.
func (p *pacer) likeIt(c Change) (time.Duration, bool) {
	var (
		narrowest span
		found     bool
	)

	for other, s := range p.spans {
		if other.Kind != c.Kind || other == c {
			continue
		}

		if recent := p.recent[other]; recent != nil {
			if _, spread := recent.scatter(); spread >= p.scattered {
				continue
			}
		}

		if !found || s.within-s.above < narrowest.within-narrowest.above {
			narrowest, found = s, true
		}
	}

	return narrowest.within + p.narrow/2, found
}

// learn records that a change of kind c was not done at a read started above after
// its wait began (zero: no read saw it not done), and done at one started within
// after.
func (p *pacer) learn(c Change, above, within time.Duration) {
	if p == nil || c == (Change{}) {
		return
	}

	p.mu.Lock()
	defer p.mu.Unlock()

	if p.recent[c] == nil {
		p.recent[c] = &recentWaits{}
	}

	p.recent[c].add(span{above: above, within: within})

	s, ok := p.spans[c]

	switch {
	case !ok:
		p.spans[c] = span{above: above, within: within}

		if learnt := p.learnt[c]; learnt != nil {
			close(learnt)
			delete(p.learnt, c)
		}
	case above == 0 && within <= s.above:
		// Its first read saw it done, below the span: a wait plans its reads on the
		// span as it begins, and the others of its wave may narrow it before it reads
		// (in a tag change under load, to a fraction of a millisecond above where it
		// read). It knows only that the change took no longer; widened down to
		// nothing, the span would send the next waits to read at the quarters of the
		// whole duration, three reads each when their updates begin apart, as they do
		// once slots free up one by one. It widens by its own width below that read.
		p.spans[c] = span{above: max(within-(s.within-s.above), 0), within: s.within}
	case above >= s.within || within <= s.above:
		p.spans[c] = span{above: min(s.above, above), within: max(s.within, within)}
	default:
		p.spans[c] = span{above: max(s.above, above), within: min(s.within, within)}
	}
}
