package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// Machine is what a reader needs to compare figures across machines.
type Machine struct {
	CPU       string
	Cores     int
	Memory    int64 // bytes
	Go        string
	Terraform string
	// Load is the load average (1, 5, 15 minutes) when the run started: figures from
	// a busy machine are slower than the code is.
	Load string
}

// DescribeMachine reads the machine's facts from /proc, the Go runtime and Terraform.
func DescribeMachine(ctx context.Context, terraformBinary string) (Machine, error) {
	machine := Machine{Cores: runtime.NumCPU(), Go: runtime.Version()}

	if cpuinfo, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		machine.CPU = procField(cpuinfo, "model name")
	}

	if meminfo, err := os.ReadFile("/proc/meminfo"); err == nil {
		if kib, err := strconv.ParseInt(strings.TrimSuffix(procField(meminfo, "MemTotal"), " kB"), 10, 64); err == nil {
			machine.Memory = kib * 1024
		}
	}

	if loadavg, err := os.ReadFile("/proc/loadavg"); err == nil {
		if fields := strings.Fields(string(loadavg)); len(fields) >= 3 {
			machine.Load = strings.Join(fields[:3], " ")
		}
	}

	output, err := exec.CommandContext(ctx, terraformBinary, "version", "-json").Output() //nolint:gosec // the benchmark's own Terraform
	if err != nil {
		return machine, fmt.Errorf("asking %s for its version: %w", terraformBinary, err)
	}

	var version struct {
		TerraformVersion string `json:"terraform_version"`
	}
	if err := json.Unmarshal(output, &version); err != nil {
		return machine, fmt.Errorf("reading the Terraform version: %w", err)
	}

	machine.Terraform = version.TerraformVersion

	return machine, nil
}

// procField returns the value of the first `name: value` line of a /proc file.
func procField(content []byte, name string) string {
	scanner := bufio.NewScanner(bytes.NewReader(content))
	for scanner.Scan() {
		key, value, ok := strings.Cut(scanner.Text(), ":")
		if ok && strings.TrimSpace(key) == name {
			return strings.TrimSpace(value)
		}
	}

	return ""
}
