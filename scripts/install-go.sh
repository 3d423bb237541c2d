#!/usr/bin/env bash
# Installs Debian's Go toolchain (test/cli/go.test.ts runs the checks on a Go project with the real `go vet` and
# `go test`) unless `go` is already on PATH.
set -euo pipefail
if command -v go >/dev/null 2>&1; then
  echo "go already installed: $(go version)"
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
t0=$(date +%s)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq golang-go
echo "go installed in $(( $(date +%s) - t0 )) s: $(go version)"
