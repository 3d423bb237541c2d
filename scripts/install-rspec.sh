#!/usr/bin/env bash
# Installs Debian's Ruby and RSpec (test/cli/ruby.test.ts runs the checks on a Ruby project with the real rspec)
# unless `rspec` already runs.
exec bash "$(dirname "$0")/apt-tool.sh" rspec 'rspec --version' ruby ruby-rspec
