//go:build linux

package private

import (
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// sinceBoot is this machine's boot, and how long it has been up by a clock no one sets
// (CLOCK_BOOTTIME: NTP may slew it, never step it, and it runs on through suspend).
func sinceBoot() (boot string, up time.Duration, ok bool) {
	id, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", 0, false
	}

	var now unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &now); err != nil {
		return "", 0, false
	}

	return strings.TrimSpace(string(id)), time.Duration(now.Nano()), true
}
