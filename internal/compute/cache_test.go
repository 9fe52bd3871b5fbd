package compute

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Callers that share a load are independent: one that gives up stops waiting at
// once, and the load still answers the others.
func TestASharedLoadOutlivesTheCallerWhoStartedIt(t *testing.T) {
	t.Parallel()

	c := newCatalogue(nil, time.Minute)
	release := make(chan struct{})
	loads := 0

	load := func(ctx context.Context) (string, error) {
		loads++
		<-release

		return "value", ctx.Err()
	}

	impatient, cancel := context.WithCancel(t.Context())
	first := make(chan error, 1)

	go func() {
		_, _, err := cached(impatient, c, "key", time.Time{}, load)
		first <- err
	}()

	// The second caller joins the load the first one started.
	second := make(chan string, 1)

	go func() {
		value, _, err := cached(t.Context(), c, "key", time.Time{}, load)
		assert.NoError(t, err)
		second <- value
	}()

	time.Sleep(20 * time.Millisecond)
	cancel()
	require.True(t, errors.Is(<-first, context.Canceled), "the impatient caller stops waiting")

	close(release)
	assert.Equal(t, "value", <-second, "the others still get the answer")
	assert.Equal(t, 1, loads)
}
