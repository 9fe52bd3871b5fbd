#!/usr/bin/env bash
# `make test`: every check, run side by side where the machine allows, then a table of
# where the time went. The tests mostly wait (on the sandbox's simulated delays, read
# lag and timeouts, and on the CLIs they drive), while building the CLIs and Unikorn's
# own suites is work for the processor; so the waiting starts as soon as it can, and
# the builds fill what it leaves idle, all at one priority: OpenTofu's (the OpenTofu
# pass and the module tests wait for it) and that of Unikorn's suites (which then
# wait on their sandbox or region for minutes, best spent beside the passes). At a
# lower priority those starved until the passes ended, and became the run's tail.
# What is built once serves every step: upstream builds its suites first, and real
# region, which shares most of their dependencies, is built after them (built side by
# side, both compiled them); upstream's suites then wait on their sandbox while real
# region builds. The programs the steps run start through
# scripts/gogc.sh (see there why).
#
#   tofu-build     OpenTofu, built from its Go module when no new enough one is at hand
#   terraform      the Terraform pass: every package, the acceptance tests under the
#                  Terraform of scripts/terraform.sh (the fault matrix in a go test
#                  of its own beside the rest: terraform-faults)
#   tofu           the acceptance packages again under the OpenTofu of scripts/tofu.sh,
#                  once that is built, beside the Terraform pass (and tofu-faults)
#   docs-check     docs/ against what `make docs` generates
#   modules        examples/modules/web-tier's own tests under both CLIs
#   upstream       Unikorn's own API suites against a sandbox, once built
#   real-region    region's acceptance tests, then region's own API suite, against
#                  region v1.20.0's own server and controllers (make test-real-region),
#                  built once upstream's suites are
#
# Each step's lines come after its name. At the end: each step's result and time,
# and per pass the tests passed, failed and skipped, the slowest packages and the
# slowest tests (the events are kept in $TEST_OUT, .test/ by default, for
# `make test-times`). Exits non-zero if any step failed.
#
# PKG narrows the run to packages (`PKG=./internal/provider/storage/...`): both passes
# over those alone, nothing else. TESTARGS reaches both passes' `go test`.
# TEST_PARALLEL (default 4) is how many tests of one package run at once, and
# TEST_PACKAGES (default 2) how many packages of one pass; the fault matrix runs
# TEST_FAULTS_PARALLEL (default 8) lives at once.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

out="${TEST_OUT:-$repo/.test}"
parallel="${TEST_PARALLEL:-4}"
faults_parallel="${TEST_FAULTS_PARALLEL:-8}"
packages="${TEST_PACKAGES:-2}"
pkg="${PKG:-}"
# Word-split on purpose: TESTARGS holds flags.
read -r -a testargs <<<"${TESTARGS:-}"

rm -rf "$out"
mkdir -p "$out/bin"

# go test and go run start what they build through scripts/gogc.sh; GOFLAGS entries are
# split at spaces, so a checkout whose path has one does without.
case "$repo" in
  *' '*) ;;
  *) export GOFLAGS="${GOFLAGS:+$GOFLAGS }-exec=$repo/scripts/gogc.sh" ;;
esac

began=$(date +%s)
pids=()
names=()

# Each background step is a process group of its own (job control), so that it stops,
# with everything it started, when this script ends early.
set -m
cleanup() {
  for pid in "${pids[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# prefix NAME: each line of stdin after NAME.
prefix() {
  sed -u "s/^/$1: /"
}

# cpu_seconds FILE: the whole seconds of user and system time in the second line of
# what `times` wrote to FILE (its children's), which reads as "1m2.500s 0m3.250s".
# `times` must write to a file: in a pipe or $(…) it would run in a subshell of its
# own, which has no children yet.
cpu_seconds() {
  awk 'NR == 2 { total = 0; for (i = 1; i <= 2; i++) { split($i, part, /[ms]/); total += part[1] * 60 + part[2] } printf "%d\n", total }' "$1"
}

# step NAME COMMAND...: runs COMMAND in the background, its lines after NAME; its
# status, time and processor time (user and system, of everything it ran) land in
# $out/NAME.status, $out/NAME.seconds and $out/NAME.cpu, its lines also in
# $out/NAME.log (a failed step's last lines are repeated at the end, where a CI log's
# tail shows them).
step() {
  local name="$1"
  shift
  (
    set +e
    start=$(date +%s)
    "$@" 2>&1 | tee "$out/$name.log" | prefix "$name"
    status=${PIPESTATUS[0]}
    echo "$(($(date +%s) - start))" >"$out/$name.seconds"
    times >"$out/$name.times"
    cpu_seconds "$out/$name.times" >"$out/$name.cpu"
    echo "$status" >"$out/$name.status"
  ) &
  pids+=("$!")
  names+=("$name")
}

# pass NAME PARALLEL CLI-ENV... -- PACKAGES...: one pass of go test under the
# reporter, running PARALLEL tests of a package at once. The test binaries are linked
# without a symbol table and debug information (-s -w): a panic's trace keeps its
# files and lines, and the link takes half the time (7.0 s of processor against 4.5 s
# for the volumes package, 9.5 against 4.8 for the instance package), which a cold run
# pays for every package.
pass() {
  local name="$1" parallel="$2"
  shift 2
  local env=()
  while [ "$1" != -- ]; do
    env+=("$1")
    shift
  done
  shift
  env "${env[@]}" "$out/bin/unikorn-testreport" run -json "$out/$name.json" -- \
    go test -json -count=1 -ldflags='-s -w' -timeout 30m -p "$packages" -parallel "$parallel" "${testargs[@]}" "$@"
}

# The reporter itself, then the CLIs: OpenTofu's build (a big one) starts at once, at
# the passes' priority, as the longest chain begins with it; Terraform's, when it is
# not built yet, in the foreground, as everything else needs it.
go build -o "$out/bin/unikorn-testreport" ./cmd/unikorn-testreport

tofu_ready="$out/tofu.path"
build_tofu() {
  scripts/tofu.sh >"$tofu_ready.tmp" && mv "$tofu_ready.tmp" "$tofu_ready"
}
step tofu-build build_tofu
tofu_build=$!

terraform="$(scripts/terraform.sh)"

# The fault matrix is the longest package by far and mostly waits, so each CLI runs
# it in a go test of its own, begun at once with room for its lives, beside the
# other packages, which would otherwise wait for one of go test's slots until it
# ended. selected ALL|FAULTS|REST lists the packages of PKG (every package by default)
# that each of them runs: its acceptance packages alone under OpenTofu (those whose
# tests drive a CLI through internal/acctest). go test starts packages in the order
# given, so those with the most acceptance tests, the longest, go first: the last to
# end are then short ones.
selected() {
  local which="$1" cli="$2"
  # shellcheck disable=SC2086 # PKG may name several patterns
  go list -f '{{.ImportPath}} {{.Dir}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}' ${pkg:-./...} |
    awk -v cli="$cli" -v which="$which" '
      cli == "tofu" && !/ [^ ]*\/internal\/acctest( |$)/ { next }
      which == "FAULTS" && $1 !~ /\/internal\/faults$/ { next }
      which == "REST" && $1 ~ /\/internal\/faults$/ { next }
      { print $1, $2 }' |
    while read -r path dir; do
      echo "$(cat "$dir"/*_test.go 2>/dev/null | grep -c '^func TestAcc') $path"
    done | sort -k1,1nr -k2 | cut -d' ' -f2
}

# cli_pass NAME CLI-PATH CLI: both passes of one CLI, the fault matrix's and the rest's.
cli_pass() {
  local name="$1" path="$2" cli="$3" env faults rest status=0
  env=(TF_ACC=1 TF_ACC_TERRAFORM_PATH="$path")
  if [ "$cli" = tofu ]; then
    # OpenTofu looks for a provider whose source names no host at its own registry,
    # so the provider under test is served there. An empty CLI configuration keeps
    # the user's (or a missing one's warning) out.
    env+=(TF_ACC_PROVIDER_HOST=registry.opentofu.org TF_CLI_CONFIG_FILE=/dev/null)
  fi
  faults="$(selected FAULTS "$cli")"
  rest="$(selected REST "$cli")"
  if [ -n "$faults" ]; then
    pass "$name-faults" "$faults_parallel" "${env[@]}" -- "$faults" &
  fi
  if [ -n "$rest" ]; then
    # shellcheck disable=SC2086 # one package a word
    pass "$name" "$parallel" "${env[@]}" -- $rest || status=$?
  fi
  if [ -n "$faults" ]; then
    wait $! || status=$?
  fi
  if [ -z "$faults$rest" ]; then
    echo "no package to test under $cli among ${pkg:-./...}"
  fi
  return "$status"
}

terraform_pass() {
  cli_pass terraform "$terraform" terraform
}

tofu_pass() {
  wait_for_tofu || return 1
  cli_pass tofu "$(cat "$tofu_ready")" tofu
}

# await FILE PID: waits until FILE is there or the step PID has ended; fails if it
# ended without writing FILE.
await() {
  while [ ! -e "$1" ]; do
    if ! kill -0 "$2" 2>/dev/null; then
      [ -e "$1" ]
      return
    fi
    sleep 2
  done
}

wait_for_tofu() {
  if ! await "$tofu_ready" "$tofu_build"; then
    echo "building OpenTofu failed (see the lines of tofu-build)"
    return 1
  fi
}

modules() {
  wait_for_tofu || return 1
  TOFU_PATH="$(cat "$tofu_ready")" TF_ACC_TERRAFORM_PATH="$terraform" scripts/module-tests.sh
}

suites_built="$out/suites.built"

# Unikorn's suites and real region build with up to six compiles at once (go's
# default is one per processor). Beside the passes' many processes, a build of two
# got about a third of a core: in a cold run real region was built 20 minutes in,
# and its minutes of tests then ran alone at the end. The same -p lets real region's
# acceptance packages run at once, eight tests in all, as many as a pass runs.
region_goflags="${GOFLAGS:+$GOFLAGS }-p=6"

upstream() {
  # shellcheck disable=SC2086 # UPSTREAMARGS holds flags
  cd upstream && GOFLAGS="$region_goflags" go run . -repo .. -built "$suites_built" ${UPSTREAMARGS:-}
}

real_region() {
  # Once upstream's suites are built (or upstream has ended without), region is built
  # on what they compiled.
  if ! await "$suites_built" "$upstream_step"; then
    echo "upstream ended before building its suites; building region from the start"
  fi
  # shellcheck disable=SC2086 # REALREGIONARGS holds flags
  cd realregion && GOFLAGS="$region_goflags" go run . -repo .. ${REALREGIONARGS:-}
}

step terraform terraform_pass
step tofu tofu_pass
if [ -z "$pkg" ]; then
  step docs-check make --no-print-directory docs-check
  step modules modules
  step upstream upstream
  upstream_step=$!
  step real-region real_region
fi

# Wait for every step, the build of OpenTofu with them.
for pid in "${pids[@]}"; do
  wait "$pid" 2>/dev/null || true
done
pids=()

echo
times >"$out/all.times"
echo "==> where the time went ($(($(date +%s) - began)) s in all, $(cpu_seconds "$out/all.times") s of processor time, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))"
printf '  %-11s %-4s %6s %8s\n' step result wall processor
failed=()
for name in "${names[@]}"; do
  status="$(cat "$out/$name.status" 2>/dev/null || echo 1)"
  result=ok
  if [ "$status" != 0 ]; then
    result=FAIL
    failed+=("$name")
  fi
  printf '  %-11s %-4s %4s s %6s s\n' "$name" "$result" "$(cat "$out/$name.seconds" 2>/dev/null || echo '?')" "$(cat "$out/$name.cpu" 2>/dev/null || echo '?')"
done
echo
"$out/bin/unikorn-testreport" table "$out"/*.json

# A spec that a suite tried again and that then passed is named here, not only among
# its step's lines, so that a flake is seen even when everything passed.
flaky="$(grep -h 'passed only when tried again' "$out"/*.log 2>/dev/null || true)"
if [ -n "$flaky" ]; then
  echo
  echo "==> passed only when tried again"
  echo "$flaky"
fi

if [ "${#failed[@]}" -gt 0 ]; then
  for name in "${failed[@]}"; do
    echo
    echo "==> why $name failed (the last of its lines; all of them in $out/$name.log)"
    # A go test pass names its failed tests on lines of their own, which may be far
    # above its end; every step ends with why it stopped.
    grep -E '^ *--- FAIL' "$out/$name.log" 2>/dev/null | head -n 30 || true
    tail -n 40 "$out/$name.log" 2>/dev/null || true
  done
  echo
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
