#!/usr/bin/env bash
# Installs Debian's pytest (test/cli/python.test.ts runs the checks on a Python project with the real pytest) unless
# python3 (the first on PATH, or Debian's /usr/bin/python3) already runs it. Debian's package serves Debian's python3:
# where PATH's python3 is another one (pyenv), the test uses /usr/bin/python3.
set -euo pipefail
has() { "$1" -m pytest --version >/dev/null 2>&1; }
for py in python3 /usr/bin/python3; do
  if has "$py"; then
    echo "pytest already installed for $py: $("$py" -m pytest --version 2>&1 | head -1)"
    exit 0
  fi
done
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
t0=$(date +%s)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3 python3-pytest
for py in python3 /usr/bin/python3; do
  if has "$py"; then
    echo "pytest installed in $(( $(date +%s) - t0 )) s for $py: $("$py" -m pytest --version 2>&1 | head -1)"
    exit 0
  fi
done
echo "apt installed python3-pytest but neither python3 nor /usr/bin/python3 runs pytest" >&2
exit 1
