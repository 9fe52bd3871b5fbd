package cloud

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
		assert.WithinDuration(t, want, got, 100*time.Millisecond)
	}

	within(t, now.Add(readLag), s.SeenSettled(Creation{}))
	within(t, created.Add(readLag+CreationMargin), s.SeenSettled(Creation{Time: created}))
	within(t, answered.Add(readLag), s.SeenSettled(Creation{Answered: answered}))
	within(t, answered.Add(readLag), s.SeenSettled(Creation{Time: created, Answered: answered}))

	// Never later than the read lag from now, however young.
	within(t, now.Add(readLag), s.SeenSettled(Creation{Time: now.Add(time.Hour), Answered: now.Add(time.Hour)}))
}
