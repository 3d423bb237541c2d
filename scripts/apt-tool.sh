#!/usr/bin/env bash
# Installs the Debian packages of a toolchain a test runs for real, unless it is there already.
# usage: apt-tool.sh NAME CHECK PACKAGE...
#   NAME    what is installed, for the messages;
#   CHECK   a shell command that succeeds when the toolchain is there, its first line of output naming the version;
#           run again after the install, which fails when it still does not succeed.
set -euo pipefail
name=$1 check=$2
shift 2
if bash -c "$check" >/dev/null 2>&1; then
  echo "$name already installed: $(bash -c "$check" 2>&1 | head -1)"
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
t0=$(date +%s)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@"
if ! bash -c "$check" >/dev/null 2>&1; then
  echo "apt-get installed $* but $name still does not run: $check" >&2
  exit 1
fi
echo "$name installed in $(( $(date +%s) - t0 )) s: $(bash -c "$check" 2>&1 | head -1)"
