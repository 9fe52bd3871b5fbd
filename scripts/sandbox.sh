# Sourced by demo.sh and module-tests.sh (not run): builds the provider and the sandbox,
# starts the sandbox on a free loopback port, points Terraform and OpenTofu at the
# provider just built, and reads the sandbox's control API. Each function takes the
# script's temporary directory, where everything lands.

sandbox_pid=""

# step HEADING: bold on a terminal and plain in logs.
if [ -t 1 ]; then
  step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else
  step() { printf '\n==> %s\n' "$*"; }
fi

# build_provider_and_sandbox WORK VERSION: both binaries into WORK/bin.
build_provider_and_sandbox() {
  (
    cd "$repo"
    go build -ldflags "-X main.version=$2" -o "$1/bin/terraform-provider-unikorn" .
    go build -ldflags "-X main.version=$2" -o "$1/bin/unikorn-sandbox" ./cmd/unikorn-sandbox
  )
}

# start_sandbox WORK [FLAG...]: starts WORK/bin/unikorn-sandbox (its log in
# WORK/sandbox.log) and exports the UNIKORN_* lines it writes to WORK/sandbox.env once
# listening. UNIKORN_SANDBOX_* variables in the environment reach it too.
start_sandbox() {
  local work="$1"
  shift
  "$work/bin/unikorn-sandbox" -listen 127.0.0.1:0 -env-file "$work/sandbox.env" "$@" >/dev/null 2>"$work/sandbox.log" &
  sandbox_pid=$!

  # The file appears whole once the sandbox listens.
  for _ in $(seq 1 100); do
    [ -s "$work/sandbox.env" ] && break
    if ! kill -0 "$sandbox_pid" 2>/dev/null; then
      cat "$work/sandbox.log" >&2
      echo "the sandbox stopped before it was ready" >&2
      return 1
    fi
    sleep 0.1
  done
  [ -s "$work/sandbox.env" ] || {
    echo "the sandbox did not start within 10 seconds" >&2
    return 1
  }
  # shellcheck disable=SC1091 # the sandbox writes it
  . "$work/sandbox.env"
}

# stop_sandbox: SIGTERM, on which the sandbox shuts down cleanly, and wait for it.
stop_sandbox() {
  if [ -n "$sandbox_pid" ]; then
    kill -TERM "$sandbox_pid" 2>/dev/null || true
    wait "$sandbox_pid" 2>/dev/null || true
    sandbox_pid=""
  fi
}

# use_built_provider WORK: Terraform and OpenTofu use WORK/bin's provider instead of
# looking for it in a registry, through a dev_overrides CLI configuration (no init).
use_built_provider() {
  cat >"$1/terraformrc" <<CONFIG
provider_installation {
  dev_overrides {
    "unikorn-cloud/unikorn" = "$1/bin"
  }
  direct {}
}
CONFIG
  export TF_CLI_CONFIG_FILE="$1/terraformrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
  unset TF_LOG TF_WORKSPACE
}

# sandbox_control PATH: GETs PATH of the sandbox's control API as the printed token
# and prints the body; fails on any status but 200. Bash alone, so that nothing but
# Go is needed.
sandbox_control() {
  local address="${UNIKORN_REGION_ENDPOINT#http://}" response status
  exec 3<>"/dev/tcp/${address%:*}/${address##*:}"
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n' "$1" "$address" "$UNIKORN_TOKEN" >&3
  response="$(cat <&3)"
  exec 3<&-
  status="${response%%$'\r'*}"
  case "$status" in
    "HTTP/1."?" 200 "*) printf '%s\n' "${response#*$'\r\n\r\n'}" ;;
    *)
      echo "GET $1: $status" >&2
      return 1
      ;;
  esac
}
