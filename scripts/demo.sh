#!/usr/bin/env bash
# Shows the provider end to end without a Unikorn account: builds the provider and
# the sandbox, starts the sandbox on a free loopback port, points Terraform at the
# freshly built provider through a dev_overrides CLI configuration, then applies
# examples/demo, prints its outputs and destroys it. Nothing is left behind: the
# sandbox is stopped and the temporary directory removed however the script ends.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/unikorn-demo.XXXXXX")"
# shellcheck source=scripts/sandbox.sh
. "$repo/scripts/sandbox.sh"

cleanup() {
  stop_sandbox
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# quietly DESCRIPTION COMMAND...: runs a Terraform command, showing only its closing
# summary line, or everything it said when it fails.
quietly() {
  local description="$1" log="$work/step.log"
  shift
  step "$description"
  if ! "$@" >"$log" 2>&1; then
    cat "$log"
    return 1
  fi
  grep -E '^(Apply|Destroy) complete|^No changes' "$log" | sed 's/^/    /' || true
}

terraform="$("$repo/scripts/terraform.sh")"

step "Building the provider and the sandbox"
build_provider_and_sandbox "$work" demo

step "Starting the sandbox"
start_sandbox "$work"
echo "    listening on $UNIKORN_REGION_ENDPOINT (region, identity and compute)"
# The instance API: INSTANCE_API=compute (the default) is compute's public API, what
# an ordinary project user (the token printed) calls. INSTANCE_API=region plays
# compute's part through region's servers and identity's allocations, which Unikorn
# grants to the services' accounts and the platform administrator only; the demo
# also makes networks and load balancers, which compute's account may not, so it
# runs with the platform administrator's token.
export UNIKORN_INSTANCE_API="${INSTANCE_API:-compute}"
if [ "$UNIKORN_INSTANCE_API" = region ]; then
  export UNIKORN_TOKEN=sandbox-platform-admin-token
  unset UNIKORN_COMPUTE_ENDPOINT
fi
echo "    instances through the $UNIKORN_INSTANCE_API API, with the token $UNIKORN_TOKEN"

# Terraform uses the provider just built instead of looking for it in the registry.
use_built_provider "$work"

# Work on a copy so that no state or lock file lands in the repository.
cp -R "$repo/examples/demo" "$work/config"

tf() { "$terraform" -chdir="$work/config" "$@"; }

# The Terraform steps of the demo.
quietly "terraform apply (examples/demo): the catalogue and a web tier behind a load balancer" tf apply -auto-approve -input=false -no-color
step "terraform output"
tf output -no-color

# A flavor change replaces the instance, and the plan says what that loses.
step "terraform plan -var flavor=sim-gpu-8: a change that replaces the instances"
tf plan -input=false -no-color -var flavor=sim-gpu-8 >"$work/plan.log" 2>&1 || { cat "$work/plan.log"; exit 1; }
grep -E 'must be replaced|forces replacement|^Plan:' "$work/plan.log" | sed 's/^ */    /'
# The warning, without Terraform's box drawing and source location.
awk '/Warning: Instance will be replaced/ { shown = 1 } shown && /╵/ { exit } shown' "$work/plan.log" \
  | sed 's/^[│ ]*//' | grep -vE '^(with |on |[0-9]+:|$)' | sed 's/^/    /'

quietly "terraform destroy" tf destroy -auto-approve -input=false -no-color

step "Done: the sandbox is stopped and $work removed"
