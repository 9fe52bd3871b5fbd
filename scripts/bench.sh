#!/usr/bin/env bash
# Runs the end-to-end benchmark: builds the provider, the floor provider, the sandbox
# and the benchmark driver, measures the sandbox's reads with its Go benchmark, then
# lets the driver run the real Terraform CLI against the sandbox (as a separate
# process, 25 ms per request, 2 s provisioning) for a bare configuration of 1, 10,
# 100 and 300 instances and a realistic one of 10, 100 and 300, through both instance
# APIs, without read lag and with 2 s of it; and for the peer configuration, the small
# one module authors meet (20 instances in one security group, three tags each, on
# compute without read lag), planned, applied, destroyed right after the apply,
# applied again and, after 5 s to settle, destroyed again, as `terraform test` takes
# it. It walks each configuration at 1, 10, 100 instances (the peer's 20) on the
# paced floor provider the same way, the small counts life by life beside each back
# end's; then walks 1,000 bare instances beside the floors, and writes the figures
# into BENCHMARKS.md.
#
# BENCH_SIZES (e.g. 1,10) narrows the counts of both configurations (or
# BENCH_REALISTIC_SIZES those of the realistic one alone), BENCH_WORKLOADS (bare,
# realistic or peer), BENCH_BACKENDS (compute or region) and BENCH_READ_LAGS (e.g. 0s)
# what runs; BENCH_SCALE is the walk's count (0 leaves it out, and the sandbox's
# benchmark with it). Other arguments go to the driver (see
# `go run ./cmd/unikorn-bench -h`). The whole run takes the best part of an hour; run
# it on a quiet machine.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/unikorn-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

terraform="$("$repo/scripts/terraform.sh")"
scale="${BENCH_SCALE:-1000}"

(
  cd "$repo"
  go build -ldflags "-X main.version=bench" -o "$work/bin/terraform-provider-unikorn" .
  go build -o "$work/floor/terraform-provider-unikorn" ./cmd/unikorn-bench-floor
  go build -o "$work/bin/unikorn-sandbox" ./cmd/unikorn-sandbox
  go build -o "$work/bin/unikorn-bench" ./cmd/unikorn-bench
)

sandbox_benchmark=()
if [ "$scale" != 0 ]; then
  (cd "$repo" && go test -run '^$' -bench 'SandboxReadByID' -benchtime 2000x ./internal/sandbox) | tee "$work/sandbox-bench.txt" >&2
  sandbox_benchmark=(-sandbox-benchmark "$work/sandbox-bench.txt")
fi

cd "$repo"
"$work/bin/unikorn-bench" \
  -terraform "$terraform" \
  -provider-dir "$work/bin" \
  -floor-dir "$work/floor" \
  -sandbox "$work/bin/unikorn-sandbox" \
  -work-dir "$work" \
  -workloads "${BENCH_WORKLOADS:-bare,realistic,peer}" \
  -instances "${BENCH_SIZES:-1,10,100,300}" \
  -realistic-instances "${BENCH_REALISTIC_SIZES:-${BENCH_SIZES:-10,100,300}}" \
  -scale "$scale" \
  -backends "${BENCH_BACKENDS:-compute,region}" \
  -read-lags "${BENCH_READ_LAGS:-0s,2s}" \
  "${sandbox_benchmark[@]}" \
  "$@"
