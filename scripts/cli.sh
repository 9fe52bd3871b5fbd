#!/usr/bin/env bash
# Prints the path of a Terraform or OpenTofu CLI new enough for this provider,
# obtaining one if needed. `scripts/cli.sh terraform` and `scripts/cli.sh tofu` (or the
# terraform.sh and tofu.sh wrappers) pick, in order:
#
#   1. $TF_ACC_TERRAFORM_PATH (terraform) or $TOFU_PATH (tofu), when set (trusted as given);
#   2. the CLI on PATH, when its version is new enough;
#   3. otherwise the pinned version ($TERRAFORM_VERSION, default 1.15.0; $TOFU_VERSION,
#      default 1.12.6) built from its Go module and cached under
#      ${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-unikorn/<tool>/<version>/.
#
# The build only needs the Go module proxy, so it works where the release download
# sites cannot be reached. The first build takes a few minutes; progress goes to
# stderr, only the path goes to stdout.
set -euo pipefail

tool="${1:-}"

log() { printf '%s: %s\n' "${tool:-cli.sh}" "$*" >&2; }

case "$tool" in
  terraform)
    # Actions, list resources and resource identity arrived in 1.14.
    minimum_minor=14
    version="${TERRAFORM_VERSION:-1.15.0}"
    given="${TF_ACC_TERRAFORM_PATH:-}"
    module="github.com/hashicorp/terraform"
    package="."
    ;;
  tofu)
    # 1.11 brought ephemeral resources and write-only attributes; 1.12 is the series
    # the acceptance tests are run with.
    minimum_minor=12
    version="${TOFU_VERSION:-1.12.6}"
    given="${TOFU_PATH:-}"
    module="github.com/opentofu/opentofu"
    package="./cmd/tofu"
    ;;
  *)
    log "usage: $0 terraform|tofu"
    exit 2
    ;;
esac

if [ -n "$given" ]; then
  echo "$given"
  exit 0
fi

# new_enough BINARY: whether BINARY reports a 1.x version with x >= minimum_minor.
# OpenTofu keeps Terraform's "terraform_version" key in `version -json`.
new_enough() {
  local reported major minor
  reported="$("$1" version -json 2>/dev/null | sed -n 's/^[[:space:]]*"terraform_version": "\([0-9.]*\).*",\{0,1\}$/\1/p')"
  major="${reported%%.*}"
  minor="$(echo "$reported" | cut -d. -f2)"
  [ -n "$major" ] && [ -n "$minor" ] || return 1
  [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge "$minimum_minor" ]; }
}

if installed="$(command -v "$tool" 2>/dev/null)" && new_enough "$installed"; then
  echo "$installed"
  exit 0
fi

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-unikorn/${tool}/${version}"
binary="$cache_dir/$tool"

if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi

mkdir -p "$cache_dir"

# A directory is the lock because mkdir is atomic everywhere (flock is not on macOS).
# A lock whose owner has died is taken over, so an interrupted build never wedges us.
lock="$cache_dir/.lock"
until mkdir "$lock" 2>/dev/null; do
  owner="$(cat "$lock/pid" 2>/dev/null || true)"
  if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
    log "removing the stale lock of process $owner"
    rm -rf "$lock"
    continue
  fi
  log "waiting for another build of ${tool} ${version} (process ${owner:-starting})"
  sleep 5
done
echo $$ >"$lock/pid"

work="$(mktemp -d)"
trap 'rm -rf "$work" "$lock"' EXIT

# Someone else may have finished the build while we waited for the lock.
if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi

log "building ${tool} ${version} from its Go module (once; a few minutes)"

# Our own go.work or GOFLAGS must not leak into a build of another module.
export GOWORK=off GOFLAGS=-mod=mod

# downloaded MODULE: the directory of MODULE (path@version, or a path that the module
# of the current directory requires) in the module cache, downloaded if need be.
downloaded() {
  local download dir
  if ! download="$(go mod download -json "$1")"; then
    log "could not download $1:"
    printf '%s\n' "$download" >&2
    return 1
  fi
  dir="$(printf '%s\n' "$download" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  if [ -z "$dir" ]; then
    log "the module cache has no directory for $1:"
    printf '%s\n' "$download" >&2
    return 1
  fi
  echo "$dir"
}

src="$(cd "$work" && downloaded "${module}@v${version}")"

cp -R "$src/." "$work/src"
chmod -R u+w "$work/src"
cd "$work/src"

# Provider tests and the demo need only the built-in state backends (local, http, inmem,
# remote, cloud). The others bring cloud SDKs (Kubernetes's client the largest) that
# would take most of a cold build's time, so they are left out of the build: their
# imports and their entries in the backend table.
init=internal/backend/init/init.go
for backend in azure consul cos gcs kubernetes oss pg s3 oci; do
  nested="${module}/internal/backend/remote-state/${backend}"
  if [ "$tool" = terraform ]; then
    # In Terraform each is a module of its own, which its module zip leaves out.
    go mod edit -dropreplace="$nested" -droprequire="$nested"
  fi
  # -i.orig works with both GNU and BSD sed.
  sed -i.orig "\#\"${nested}\"#d" "$init"
done
sed -i.orig -E '/"(azurerm|consul|cos|gcs|kubernetes|oss|pg|s3|oci)": +func/d' "$init"
rm -f "$init.orig"
if [ "$tool" = terraform ]; then
  go mod edit -dropreplace="${module}/internal/legacy" -droprequire="${module}/internal/legacy"
fi
if [ "$tool" = tofu ]; then
  # Likewise OpenTofu's state encryption keeps its own key providers (passphrase,
  # external) and leaves out those of cloud key services, whose SDKs they bring.
  registry=internal/encryption/default_registry.go
  sed -i.orig -E '/keyprovider\/(aws_kms|azure_vault|gcp_kms|openbao)"/d' "$registry"
  awk '/RegisterKeyProvider\((aws_kms|gcp_kms|azure_vault|openbao)\.New/ { skip = 3 } skip > 0 { skip--; next } { print }' \
    "$registry" >"$registry.new"
  mv "$registry.new" "$registry"
  rm -f "$registry.orig"
fi

# Both CLIs install modules with go-getter, whose s3:: and gcs:: sources bring the AWS
# and Google Cloud SDKs (364 of Terraform's 1259 packages, and 15 ms of processor time
# at the start of every command a test runs: `terraform version` took 38 ms, now 23). No test or example fetches a
# module from a bucket, so the build uses a copy of go-getter whose S3 and GCS getters
# say that this CLI has none; every other source works as released.
getter_dir="$(downloaded github.com/hashicorp/go-getter)"
cp -R "$getter_dir" "$work/go-getter"
chmod -R u+w "$work/go-getter"
rm "$work/go-getter/get_s3.go" "$work/go-getter/get_gcs.go"
cat >"$work/go-getter/get_cloud_storage_left_out.go" <<'GO'
package getter

import (
	"errors"
	"net/url"
	"time"
)

var errCloudStorageLeftOut = errors.New("this build of the CLI (scripts/cli.sh) leaves out s3:: and gcs:: module sources")

// S3Getter stands for go-getter's, left out of this build.
type S3Getter struct {
	getter

	Timeout time.Duration
}

func (g *S3Getter) ClientMode(*url.URL) (ClientMode, error) {
	return ClientModeInvalid, errCloudStorageLeftOut
}

func (g *S3Getter) Get(string, *url.URL) error { return errCloudStorageLeftOut }

func (g *S3Getter) GetFile(string, *url.URL) error { return errCloudStorageLeftOut }

// GCSGetter stands for go-getter's, left out of this build.
type GCSGetter struct {
	getter

	Timeout       time.Duration
	FileSizeLimit int64
}

func (g *GCSGetter) ClientMode(*url.URL) (ClientMode, error) {
	return ClientModeInvalid, errCloudStorageLeftOut
}

func (g *GCSGetter) Get(string, *url.URL) error { return errCloudStorageLeftOut }

func (g *GCSGetter) GetFile(string, *url.URL) error { return errCloudStorageLeftOut }
GO
go mod edit -replace="github.com/hashicorp/go-getter=$work/go-getter"

# dev=no makes the CLI report a release version, which version checks rely on. No
# -trimpath: built as the provider's own packages are, the standard library and the
# modules both use (gRPC, protobuf among them) compile once into the build cache for
# both, which a cold `make test` feels.
go build \
  -ldflags "-s -w -X ${module}/version.dev=no" \
  -o "$cache_dir/${tool}.tmp.$$" "$package"
# A rename is atomic, so a concurrent reader sees either no binary or a whole one.
mv "$cache_dir/${tool}.tmp.$$" "$binary"
log "built $binary"
echo "$binary"
