#!/usr/bin/env bash
# Runs the end-to-end benchmark: builds the provider, the sandbox and the benchmark
# driver, then lets the driver run the real Terraform CLI against the sandbox (as a
# separate process, 25 ms per request, 2 s provisioning) for 1, 10, 100 and 300
# instances, through both instance APIs, without read lag and with 2 s of it, and
# write the figures into BENCHMARKS.md. BENCH_SIZES (e.g. 1,10), BENCH_BACKENDS
# (compute or region) and BENCH_READ_LAGS (e.g. 0s) narrow a run; other arguments go
# to the driver (see `go run ./cmd/unikorn-bench -h`). The whole run takes about a
# quarter of an hour; run it on a quiet machine.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/unikorn-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

terraform="$("$repo/scripts/terraform.sh")"

(
  cd "$repo"
  go build -ldflags "-X main.version=bench" -o "$work/bin/terraform-provider-unikorn" .
  go build -o "$work/bin/unikorn-sandbox" ./cmd/unikorn-sandbox
  go build -o "$work/bin/unikorn-bench" ./cmd/unikorn-bench
)

cd "$repo"
"$work/bin/unikorn-bench" \
  -terraform "$terraform" \
  -provider-dir "$work/bin" \
  -sandbox "$work/bin/unikorn-sandbox" \
  -work-dir "$work" \
  -instances "${BENCH_SIZES:-1,10,100,300}" \
  -backends "${BENCH_BACKENDS:-compute,region}" \
  -read-lags "${BENCH_READ_LAGS:-0s,2s}" \
  "$@"
