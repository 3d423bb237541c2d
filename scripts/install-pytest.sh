#!/usr/bin/env bash
# Installs Debian's pytest (test/cli/python.test.ts runs the checks on a Python project with the real pytest) if
# `python3 -m pytest` does not run yet.
set -euo pipefail
if python3 -m pytest --version >/dev/null 2>&1; then
  echo "pytest already installed: $(python3 -m pytest --version 2>&1 | head -1)"
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
t0=$(date +%s)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3 python3-pytest
python3 -m pytest --version >/dev/null 2>&1 || { echo "apt installed python3-pytest but python3 -m pytest does not run" >&2; exit 1; }
echo "pytest installed in $(( $(date +%s) - t0 )) s: $(python3 -m pytest --version 2>&1 | head -1)"
