package compute

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A wait that outlasts its patience slows down, so that a long provisioning (a
// bare-metal machine takes many minutes) costs few reads.
func TestALongWaitSlowsDown(t *testing.T) {
	t.Parallel()

	count := func(policy PollPolicy) int {
		service := &Service{poll: policy, pollEpoch: time.Now()}
		checks := 0

		ctx, cancel := context.WithTimeout(t.Context(), 400*time.Millisecond)
		defer cancel()

		err := service.waitFor(ctx, "a slow change", func(context.Context) (bool, error) {
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
}
