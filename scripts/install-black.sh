#!/usr/bin/env bash
# Installs Debian's Black (test/unit/format.test.ts lays out DevA's Python files with the project's Black before the
# checks) unless black already runs.
exec bash "$(dirname "$0")/apt-tool.sh" black 'black --version' black
