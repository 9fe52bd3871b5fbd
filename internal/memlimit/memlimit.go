// Package memlimit keeps the Go runtime's soft memory limit a little above what the
// provider holds live.
//
// Terraform starts a provider process for every walk, beside itself, and by default the
// garbage collector lets the heap grow to twice what is live before it collects: most
// of that is the garbage of the plugin framework's per-request work. A soft limit makes
// the collector run sooner and keeps a walk of a few hundred instances compact. A fixed
// limit, though, is a cliff: the live heap grows over a walk (to about 80 MB by the end
// of a refresh of 1,000 instances, most of it allocated by the plugin SDK's layers for
// each request), and once it nears the limit the collector runs back to back. That
// refresh took 16-18 s and 20-22 s of the provider's CPU with a fixed 40 MiB limit, 6 s
// and 4.4 s with none (at a 160 MiB peak). So the limit follows the live heap from
// above, never closer than Headroom times it: 10.5-11 s and 11-12 s of CPU, at 105 MiB,
// with a walk of 300 instances still under 60 MiB.
package memlimit

import (
	"context"
	"math"
	"os"
	rtdebug "runtime/debug"
	"runtime/metrics"
	"time"
)

// Headroom is how far above the live heap the limit stays, as a factor. The limit
// counts all the memory the runtime manages (stacks, its own metadata, free spans not
// yet returned), not the heap alone, so the collector runs somewhat more often than
// GOGC=50 would.
const Headroom = 1.5

// Interval is how often the live heap is looked at. The runtime measures it at the
// end of each collection; a collector running back to back is noticed within this.
const Interval = 100 * time.Millisecond

const liveHeap = "/gc/heap/live:bytes"

// DefaultFloor is the limit's floor when GOMEMLIMIT sets none: it keeps a walk of a
// few hundred instances compact, and the limit follows the live heap above it.
const DefaultFloor = 40 << 20

// FollowUnlessSet follows the live heap from DefaultFloor for the life of the
// process, unless GOMEMLIMIT sets a limit of its own.
func FollowUnlessSet() {
	if os.Getenv("GOMEMLIMIT") == "" {
		_ = Follow(context.Background(), DefaultFloor)
	}
}

// Follow sets the soft memory limit to floor, and from then on, until ctx ends or stop
// is called, to Headroom times the live heap whenever that is more. stop returns once
// the limit no longer changes.
func Follow(ctx context.Context, floor int64) (stop func()) {
	rtdebug.SetMemoryLimit(floor)

	ctx, cancel := context.WithCancel(ctx)
	stopped := make(chan struct{})

	go func() {
		defer close(stopped)

		ticker := time.NewTicker(Interval)
		defer ticker.Stop()

		sample := []metrics.Sample{{Name: liveHeap}}
		limit := floor

		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}

			metrics.Read(sample)

			if next := Limit(floor, sample[0].Value.Uint64()); next != limit {
				limit = next
				rtdebug.SetMemoryLimit(limit)
			}
		}
	}()

	return func() {
		cancel()
		<-stopped
	}
}

// Limit is the soft memory limit for a live heap of live bytes: the floor, or Headroom
// times the live heap when that is more.
func Limit(floor int64, live uint64) int64 {
	if float64(live)*Headroom >= math.MaxInt64 {
		return math.MaxInt64
	}

	return max(floor, int64(float64(live)*Headroom))
}
