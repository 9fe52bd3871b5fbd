#!/usr/bin/env bash
# Prints the path of a Terraform CLI new enough for this provider (>= 1.14), building
# and caching the pinned version if none is installed; see cli.sh.
exec "$(dirname "$0")/cli.sh" terraform
