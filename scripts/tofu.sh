#!/usr/bin/env bash
# Prints the path of an OpenTofu CLI new enough for this provider (>= 1.12), building
# and caching the pinned version if none is installed; see cli.sh.
exec "$(dirname "$0")/cli.sh" tofu
