#!/usr/bin/env bash
# Runs the example module's own tests (examples/modules/web-tier/tests) as a module
# author's CI would, against one fresh sandbox whose organization may have two servers
# (UNIKORN_SANDBOX_QUOTA) and whose reads trail writes by up to half a second
# (UNIKORN_SANDBOX_READ_LAG, which the caller may set harsher): `terraform test`, then
# tests/quota, whose last run must fail on the quota error and on nothing else; then
# the same under OpenTofu. After each, the sandbox must hold nothing but its fixtures:
# the test framework destroyed everything, the partly applied tier of the failed run
# included. Nothing lands in the repository.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/unikorn-module-tests.XXXXXX")"
# shellcheck source=scripts/sandbox.sh
. "$repo/scripts/sandbox.sh"

cleanup() {
  stop_sandbox
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

module="$work/web-tier"
log="$work/test.log"

# nothing_left AFTER: fails unless the sandbox holds only its fixtures.
nothing_left() {
  local left
  left="$(sandbox_control '/sandbox/v1/objects?fixtures=false')"
  if [ "$left" != "[]" ]; then
    echo "after $1 the sandbox still holds: $left" >&2
    return 1
  fi
  echo "    the sandbox holds nothing but its fixtures"
}

# module_test CLI ARG...: runs CLI's test command in the module, showing its per-run
# lines and summary, or everything it said when it fails.
module_test() {
  local cli="$1"
  shift
  step "$(basename "$cli") test${*:+ $*}"
  if ! (cd "$module" && "$cli" test -no-color "$@") >"$log" 2>&1; then
    cat "$log"
    return 1
  fi
  grep -E '^  run |^Success!' "$log" | sed 's/^ */    /'
}

step "Building the provider and the sandbox"
build_provider_and_sandbox "$work" module-tests

read_lag="${UNIKORN_SANDBOX_READ_LAG:-500ms}"
step "Starting the sandbox with a quota of two servers and reads trailing writes by up to $read_lag"
UNIKORN_SANDBOX_QUOTA=servers=2 UNIKORN_SANDBOX_READ_LAG="$read_lag" start_sandbox "$work"
echo "    listening on $UNIKORN_REGION_ENDPOINT"
use_built_provider "$work"

# A copy, so that no working files land in the repository.
cp -R "$repo/examples/modules/web-tier" "$module"

for cli in "$("$repo/scripts/terraform.sh")" "$("$repo/scripts/tofu.sh")"; do
  module_test "$cli"
  nothing_left "$(basename "$cli") test"

  step "$(basename "$cli") test -test-directory=tests/quota: the third instance must fail on the quota"
  if (cd "$module" && "$cli" test -no-color -test-directory=tests/quota) >"$log" 2>&1; then
    cat "$log"
    echo "the run over the quota passed: is the sandbox's quota two servers?" >&2
    exit 1
  fi
  if ! grep -q 'run "asks_for_one_more_than_the_quota"\.\.\. fail' "$log" ||
    ! grep -q "the organization's quota does not allow this instance" "$log" ||
    ! grep -q 'Failure! 1 passed, 1 failed' "$log"; then
    cat "$log"
    echo "the quota test failed otherwise than on the quota" >&2
    exit 1
  fi
  grep -E "^  run |quota does not allow|^Failure!" "$log" | sed 's/^ */    /'
  nothing_left "the quota test"
done

step "Done: both CLIs passed the module's tests, and the sandbox was left as it started"
