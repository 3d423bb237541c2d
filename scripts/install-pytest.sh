#!/usr/bin/env bash
# Installs Debian's pytest (test/cli/python.test.ts runs the checks on a Python project with the real pytest) unless
# python3 (the first on PATH, or Debian's /usr/bin/python3) already runs it. Debian's package serves Debian's python3:
# where PATH's python3 is another one (pyenv), the test uses /usr/bin/python3.
exec bash "$(dirname "$0")/apt-tool.sh" pytest 'python3 -m pytest --version || /usr/bin/python3 -m pytest --version' python3 python3-pytest
