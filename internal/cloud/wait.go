package cloud

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ErrNotFound is wrapped by the families' own "definitely gone" errors, so that a
// wait knows such an answer for an answer and not a passing failure.
var ErrNotFound = errors.New("not found")

// WaitFor calls check until it reports done or fails, pacing calls by the poll policy.
// It returns ctx's error, wrapped with what it was waiting for, when ctx ends first.
//
// Every check falls on a tick of the session's poll grid, the multiples of the current
// interval since pollEpoch, so that the waits of one provider process (Terraform
// creates many objects at once) wake together and share their reads. The first is the
// first tick a whole interval after the wait began, not the next one, which may be
// moments away: a wait follows a request whose answer already said the change was
// under way, and a change that takes longer than an interval is seen done on the same
// tick either way, for one read fewer.
//
// A read that fails without a definite answer (a 5xx, a 429, a broken connection, a
// request timeout) does not end the wait: the change is under way whatever one read
// says, and giving up would leave, say, a new instance tainted and replaced. Such
// failures, which check reports through ReadFailed, only slow the reads down, up to
// Slow, until the wait's own time runs out; a refusal (401, 403, another 4xx) ends it
// at once.
func (s *Session) WaitFor(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	return s.waitFor(ctx, what, check, nil)
}

// waitFor is WaitFor after a read that already failed without an answer, or none:
// the wait ends with that failure if it reads nothing better before its time runs out.
func (s *Session) waitFor(ctx context.Context, what string, check func(context.Context) (bool, error), ridden error) error {
	return s.waitForChange(ctx, what, Change{}, func(ctx context.Context, _ bool) (bool, error) { return check(ctx) }, ridden)
}

// WaitForNow is WaitFor with its first check at once rather than a whole interval in,
// for a check that sends the request the wait is for (a write that a conflict puts
// off) or reads what its caller cannot go on without. A first failure without an
// answer is ridden out as the wait's own are.
func (s *Session) WaitForNow(ctx context.Context, what string, check func(context.Context) (bool, error)) error {
	done, err := check(ctx)

	ridden, final := sortFailure(ctx, what, err, nil)

	switch {
	case final != nil:
		return final
	case done && ridden == nil:
		return nil
	}

	return s.waitFor(ctx, what, check, ridden)
}

// sortFailure sorts the error a wait's check returned: ridden, a read that failed
// without an answer, which the wait rides out; or final, what the wait ends with (the
// check's own answer, or a WaitError when the wait's time ran out while it read).
// Both are nil when the check did not fail.
func sortFailure(ctx context.Context, what string, err, lastFailure error) (ridden, final error) {
	var failed *readError

	switch {
	case err == nil:
		return nil, nil
	case ctx.Err() != nil:
		return nil, &WaitError{What: what, Err: context.Cause(ctx), LastFailure: lastFailure}
	case errors.As(err, &failed) && Transient(failed.err):
		return failed.err, nil
	case failed != nil:
		return nil, failed.err
	}

	return nil, err
}

// WaitForChange is WaitFor for a change of kind c, whose duration the session learns:
// besides its ticks, the wait reads when the change is likely to be done (see pacer).
// check learns whether it reads where the change has been seen done before (expectDone:
// the end of the learnt span and after), so that it may read the one thing it waits
// for at once; elsewhere (ticks, and the quarters of a span still wide, where most
// reads see the change not done) it should read what the waits of a wave share. Once the session
// knows how long c takes, the wait skips the ticks before the least it has taken
// (their reads could only see it not done, and were most of an apply's polls), or,
// when it knows it well enough to read at the end only, every tick before that end.
// The probes fall on a grid a tenth of the shortest interval fine (the pacer's
// narrow), so that the waits of a wave, begun a few milliseconds apart, read at the
// same moments and share reads.
func (s *Session) WaitForChange(ctx context.Context, what string, c Change, check func(ctx context.Context, expectDone bool) (bool, error)) error {
	return s.waitForChange(ctx, what, c, check, nil)
}

// waitForChange is WaitForChange whose last failure so far is lastFailure.
func (s *Session) waitForChange(
	ctx context.Context, what string, c Change, check func(ctx context.Context, expectDone bool) (bool, error), lastFailure error,
) error {
	start := time.Now()
	interval := s.poll.Min
	patientUntil := start.Add(s.poll.Patience)
	learnt := s.pacer.unknown(c)
	offsets, notBefore := s.pacer.probes(c)
	notBefore = max(notBefore, interval)
	probes := s.gridProbes(start, offsets)

	// notDone is when the last read that saw the change not done began.
	var notDone time.Duration

	for {
		now := time.Now()

		wait := s.untilTick(now, interval)
		for now.Add(wait).Before(start.Add(notBefore)) {
			wait += interval
		}

		// A wait for a change it knows nothing of reads twice as often over its first
		// intervals: its ticks, shared with the rest of its wave, are the process's
		// first lesson of how long the change takes (see unknownTicks).
		if learnt != nil && notDone > 0 && now.Sub(start) < unknownTicks*s.poll.Min {
			wait = min(wait, s.untilTick(now, interval/2))
		}

		for len(probes) > 0 && !probes[0].at.After(now) {
			probes = probes[1:]
		}

		// A probe that falls on a tick takes its place, as it may expect the change done.
		expectDone := false
		if len(probes) > 0 && !probes[0].at.After(now.Add(wait)) {
			wait = probes[0].at.Sub(now)
			expectDone = probes[0].expectDone
			probes = probes[1:]
		}

		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()

			return &WaitError{What: what, Err: context.Cause(ctx), LastFailure: lastFailure}
		case <-learnt:
			// Another wait of the wave has seen its change done: read where it did.
			timer.Stop()

			learnt = nil
			offsets, _ := s.pacer.probes(c)
			probes = s.gridProbes(start, offsets)

			continue
		case <-timer.C:
		}

		began := time.Since(start)
		done, err := check(ctx, expectDone)

		ceiling := s.poll.Max
		if s.poll.Patience > 0 && time.Now().After(patientUntil) {
			ceiling = max(s.poll.Slow, s.poll.Max)
		}

		ridden, final := sortFailure(ctx, what, err, lastFailure)

		switch {
		case final != nil:
			return final
		case ridden != nil:
			lastFailure = ridden
			// Back off from an API in trouble rather than add to it.
			ceiling = max(s.poll.Slow, s.poll.Max)
		case done:
			s.pacer.learn(c, notDone, began)

			return nil
		default:
			lastFailure = nil
			notDone = began
		}

		interval = min(time.Duration(float64(interval)*s.poll.Factor), ceiling)
	}
}

// unknownTicks is how many intervals a wait for a change that nothing is known of reads
// on the finer grid of half an interval: a deletion (half a second in the sandbox, a
// few seconds in a cloud) or the first wave of any change is seen done a quarter of a
// second sooner on average, at the cost of a few reads that the wave shares, once
// per kind of change in a process.
const unknownTicks = 4

// gridProbe is a probe (see pacer.probes) at a time of the probes' grid.
type gridProbe struct {
	at         time.Time
	expectDone bool
}

// gridProbes places offsets, counted from start, on the probes' grid.
func (s *Session) gridProbes(start time.Time, offsets []probe) []gridProbe {
	probes := make([]gridProbe, len(offsets))
	for i, offset := range offsets {
		probes[i] = gridProbe{s.onGrid(start.Add(offset.at), s.pacer.narrow), offset.expectDone}
	}

	return probes
}

// Transient reports whether a failed read says nothing about what it read: every
// failure but an answer (a refusal, a 4xx other than 429, or "not found") and a
// client that lacks the endpoint the read needs.
func Transient(err error) bool {
	if errors.Is(err, ErrNotFound) || unikorn.IsUnconfigured(err) {
		return false
	}

	var apiErr *unikorn.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode >= http.StatusInternalServerError
	}

	return true
}

// IsClientError reports whether err is a definite refusal: a 4xx answer.
func IsClientError(err error) bool {
	var apiErr *unikorn.APIError

	return errors.As(err, &apiErr) && apiErr.StatusCode >= 400 && apiErr.StatusCode < 500
}

// onGrid is t, or the first tick of the poll grid of interval after it.
func (s *Session) onGrid(t time.Time, interval time.Duration) time.Time {
	if offset := t.Sub(s.pollEpoch) % interval; offset > 0 {
		return t.Add(interval - offset)
	}

	return t
}

// untilTick is the time from now to the next tick of the poll grid of interval.
func (s *Session) untilTick(now time.Time, interval time.Duration) time.Duration {
	return interval - now.Sub(s.pollEpoch)%interval
}

// ReadFailed marks, for a wait's check, the failure of the read itself, as opposed to
// a failure the read revealed (such as an object in error): a read that failed
// without a definite answer does not end the wait.
func ReadFailed(err error) error {
	return &readError{err: err}
}

type readError struct {
	err error
}

func (e *readError) Error() string { return e.err.Error() }

func (e *readError) Unwrap() error { return e.err }

// WaitError means a wait ended (timeout or cancellation) before its condition held.
type WaitError struct {
	What string
	Err  error
	// LastFailure is the last read's failure when the wait ended among failed reads.
	LastFailure error
}

func (e *WaitError) Error() string {
	message := "gave up waiting for " + e.What + ": " + e.Err.Error()
	if e.LastFailure != nil {
		message += " (the last read failed: " + e.LastFailure.Error() + ")"
	}

	return message
}

// Interrupted reports whether the wait ended because it was cancelled (Ctrl-C) rather
// than because its time ran out.
func (e *WaitError) Interrupted() bool {
	return errors.Is(e.Err, context.Canceled)
}

func (e *WaitError) Unwrap() error { return e.Err }

// Sleep waits for d, or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()

	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-timer.C:
		return nil
	}
}

// Only is a list query's filter of one value, or no filter when value is empty.
func Only(value string) []string {
	if value == "" {
		return nil
	}

	return []string{value}
}

// UndoTimeout bounds a compensating step. Undo runs on a context detached from the
// caller's, because the usual reason to undo is that the caller's deadline has passed.
const UndoTimeout = 2 * time.Minute

// Persist runs an idempotent step (an undo, or a read that decides one) on a context
// detached from the caller's, repeating it with backoff through any transient
// failure until it succeeds, is answered definitely, or UndoTimeout passes: what is
// left behind when such a step gives up is leaked quota, or an object made twice.
func (s *Session) Persist(ctx context.Context, step func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), UndoTimeout)
	defer cancel()

	for pause := s.Poll().Min; ; pause = min(2*pause, max(s.Poll().Slow, s.Poll().Max)) {
		err := step(ctx)
		if err == nil || !Transient(err) || Sleep(ctx, pause) != nil {
			return err
		}
	}
}

// Progress receives human-readable updates while an operation waits, such as that a
// snapshot image is creating.
type Progress func(message string)
