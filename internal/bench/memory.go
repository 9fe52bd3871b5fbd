package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// peakWatch follows the processes of one name that a parent process starts, and keeps
// the highest peak resident set size any of them reached, and the CPU time each used.
//
// It reads VmHWM from /proc/<pid>/status: the kernel's own high-water mark of the
// process's resident memory. Because the kernel keeps the maximum, a sample taken at
// any moment before the process exits sees every peak before that moment, so sampling
// every few milliseconds loses at most what the process allocates in its last few
// milliseconds, its shutdown.
type peakWatch struct {
	parent int
	comm   string

	mu    sync.Mutex
	peaks map[int]int64         // pid → VmHWM in bytes
	cpu   map[int]time.Duration // pid → user and system time

	stop func()
	done chan struct{}
}

// commLength is how much of an executable's name the kernel keeps as its comm
// (TASK_COMM_LEN less the terminating NUL).
const commLength = 15

// watchPeakRSS samples, every interval until Stop, the children of parent whose
// executable is named name.
func watchPeakRSS(parent int, name string, interval time.Duration) *peakWatch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &peakWatch{
		parent: parent,
		comm:   name[:min(len(name), commLength)],
		peaks:  map[int]int64{},
		cpu:    map[int]time.Duration{},
		stop:   cancel,
		done:   make(chan struct{}),
	}

	go func() {
		defer close(w.done)

		ticker := time.NewTicker(interval)
		defer ticker.Stop()

		for {
			w.sample()

			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
		}
	}()

	return w
}

// Stop ends the sampling and returns the highest peak seen, in bytes, how many
// processes it watched, and the CPU time they used together (as last sampled: the
// last few milliseconds of each, its shutdown, are lost).
func (w *peakWatch) Stop() (int64, int, time.Duration) {
	w.stop()
	<-w.done

	w.mu.Lock()
	defer w.mu.Unlock()

	var peak int64
	for _, hwm := range w.peaks {
		peak = max(peak, hwm)
	}

	var cpu time.Duration
	for _, used := range w.cpu {
		cpu += used
	}

	return peak, len(w.peaks), cpu
}

// sample reads the peak of every matching process alive now. Processes come and go
// while /proc is read, so anything unreadable is skipped: it has exited.
func (w *peakWatch) sample() {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}

	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil {
			continue
		}

		stat, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "stat"))
		if err != nil {
			continue
		}

		comm, ppid, cpu, err := parseStat(stat)
		if err != nil || ppid != w.parent || comm != w.comm {
			continue
		}

		status, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "status"))
		if err != nil {
			continue
		}

		hwm, err := parseVmHWM(status)
		if err != nil {
			continue
		}

		w.mu.Lock()
		w.peaks[pid] = max(w.peaks[pid], hwm)
		w.cpu[pid] = max(w.cpu[pid], cpu)
		w.mu.Unlock()
	}
}

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ, 100 on every
// Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// parseStat reads the comm, the parent's pid and the CPU time used (user and system)
// from /proc/<pid>/stat, which is `pid (comm) state ppid … utime stime …`. The comm may
// itself hold spaces and parentheses, so it ends at the last closing parenthesis.
func parseStat(stat []byte) (string, int, time.Duration, error) {
	open, closing := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || closing < open {
		return "", 0, 0, fmt.Errorf("malformed stat %q", stat)
	}

	// After the comm: state (field 3), ppid (4), … utime (14), stime (15).
	fields := strings.Fields(string(stat[closing+1:]))
	if len(fields) < 13 {
		return "", 0, 0, fmt.Errorf("malformed stat %q", stat)
	}

	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return "", 0, 0, fmt.Errorf("malformed parent pid in stat: %w", err)
	}

	var ticks int64

	for _, field := range fields[11:13] {
		n, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return "", 0, 0, fmt.Errorf("malformed CPU time in stat: %w", err)
		}

		ticks += n
	}

	return string(stat[open+1 : closing]), ppid, time.Duration(ticks) * clockTick, nil
}

// parseVmHWM reads the peak resident set size, in bytes, from /proc/<pid>/status.
func parseVmHWM(status []byte) (int64, error) {
	scanner := bufio.NewScanner(bytes.NewReader(status))
	for scanner.Scan() {
		value, ok := strings.CutPrefix(scanner.Text(), "VmHWM:")
		if !ok {
			continue
		}

		fields := strings.Fields(value)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("malformed VmHWM line %q", scanner.Text())
		}

		kib, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("malformed VmHWM line %q: %w", scanner.Text(), err)
		}

		return kib * 1024, nil
	}

	return 0, fmt.Errorf("no VmHWM line in status")
}
