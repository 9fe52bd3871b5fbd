package cloud

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// A 404 for an object becomes definite once it existed longer ago than the read lag.
// The cloud's whole-second creationTime needs a margin; the moment this provider saw
// its create answered needs none, so for an object the provider made, the nearer of
// the two decides; and nothing known of either leaves the read lag from now.
func TestA404IsSettledByTheNearerOfWhatIsKnownOfTheCreation(t *testing.T) {
	t.Parallel()

	const readLag = 2 * time.Second

	s := NewSession(nil, WithReadLag(readLag))
	now := time.Now()
	created := now.Add(-3 * time.Second)
	answered := now.Add(-1500 * time.Millisecond)

	within := func(t *testing.T, want, got time.Time) {
		t.Helper()
		assert.WithinDuration(t, want, got, 250*time.Millisecond)
	}

	within(t, now.Add(readLag), s.SeenSettled(Creation{}))
	within(t, created.Add(readLag+CreationMargin), s.SeenSettled(Creation{Time: created}))
	within(t, answered.Add(readLag), s.SeenSettled(Creation{Answered: answered}))
	within(t, answered.Add(readLag), s.SeenSettled(Creation{Time: created, Answered: answered}))

	// An answer long before the creationTime is another object's: one of the same ID
	// made since is settled by its own creation.
	recreated := now.Add(-500 * time.Millisecond).Truncate(time.Second)
	within(t, now.Add(readLag), s.SeenSettled(Creation{Time: recreated, Answered: now.Add(-time.Hour)}))

	// Never later than the read lag from now, however young.
	within(t, now.Add(readLag), s.SeenSettled(Creation{Time: now.Add(time.Hour), Answered: now.Add(time.Hour)}))
}

// A 404 a read has already given is judged by when that read was sent: sent before
// the caches could no longer hide the object, it proves nothing however late it is
// looked at, and the object is read again; sent after, it is believed at once.
func TestA404AlreadyGivenIsJudgedByWhenItsReadWasSent(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		s := NewSession(nil, WithReadLag(time.Second), WithPollPolicy(PollPolicy{Min: 5 * time.Millisecond, Max: 10 * time.Millisecond, Factor: 2}))
		gone := &unikorn.APIError{StatusCode: http.StatusNotFound}

		reads := 0
		read := func(context.Context) error {
			reads++

			return gone
		}

		settled := time.Now().Add(20 * time.Millisecond)
		early := Miss{Err: gone, Sent: time.Now()}

		time.Sleep(time.Until(settled.Add(10 * time.Millisecond)))

		require.ErrorIs(t, s.PastReadLagAfter(t.Context(), settled, early, read), gone)
		assert.Equal(t, 1, reads, "a 404 sent within the lag is read again, though looked at after it")

		reads = 0
		late := Miss{Err: gone, Sent: time.Now()}
		require.ErrorIs(t, s.PastReadLagAfter(t.Context(), settled, late, read), gone)
		assert.Zero(t, reads, "a 404 sent after the lag is believed")
	})
}
