#!/usr/bin/env bash
# Installs Debian's Go toolchain (test/cli/go.test.ts runs the checks on a Go project with the real `go vet` and
# `go test`) unless `go` already runs.
exec bash "$(dirname "$0")/apt-tool.sh" go 'go version' golang-go
