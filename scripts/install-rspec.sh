#!/usr/bin/env bash
# Installs Debian's Ruby and RSpec (test/cli/ruby.test.ts runs the checks on a Ruby project with the real rspec)
# unless `rspec` is already on PATH.
set -euo pipefail
if command -v rspec >/dev/null 2>&1; then
  echo "rspec already installed: $(rspec --version 2>&1 | head -1)"
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
t0=$(date +%s)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ruby ruby-rspec
echo "rspec installed in $(( $(date +%s) - t0 )) s: $(rspec --version 2>&1 | head -1)"
