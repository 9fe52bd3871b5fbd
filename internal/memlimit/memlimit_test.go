package memlimit_test

import (
	"math"
	"runtime"
	rtdebug "runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/memlimit"
)

func TestLimitIsTheFloorUntilTheLiveHeapNeedsMore(t *testing.T) {
	t.Parallel()

	assert.Equal(t, int64(40<<20), memlimit.Limit(40<<20, 10<<20))
	assert.Equal(t, int64(40<<20), memlimit.Limit(40<<20, 26<<20), "1.5 × 26 MiB is 39 MiB, under the floor")
	assert.Equal(t, int64(120<<20), memlimit.Limit(40<<20, 80<<20))
	assert.Equal(t, int64(math.MaxInt64), memlimit.Limit(40<<20, math.MaxUint64))
}

// Not parallel: the memory limit belongs to the whole test process.
func TestFollowRaisesTheLimitAboveALargeLiveHeap(t *testing.T) {
	previous := rtdebug.SetMemoryLimit(-1)

	const floor = 8 << 20

	stop := memlimit.Follow(t.Context(), floor)
	t.Cleanup(func() {
		stop()
		rtdebug.SetMemoryLimit(previous)
	})
	assert.Equal(t, int64(floor), rtdebug.SetMemoryLimit(-1))

	live := make([]byte, 64<<20)
	for i := range live {
		live[i] = byte(i)
	}

	runtime.GC()

	assert.Eventually(t, func() bool { return rtdebug.SetMemoryLimit(-1) >= 96<<20 }, 5*time.Second, 10*time.Millisecond,
		"the limit stays at least 1.5 times the live heap")
	runtime.KeepAlive(live)
}
