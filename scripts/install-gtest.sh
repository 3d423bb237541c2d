#!/usr/bin/env bash
# Installs Debian's GoogleTest (headers and static libraries, found by CMake's find_package(GTest)), unless it is
# there already: test/unit/failFirstCTest.test.ts runs fail-first on a C++ project with the real GoogleTest.
exec bash "$(dirname "$0")/apt-tool.sh" googletest \
  "test -f /usr/include/gtest/gtest.h && dpkg-query -W -f='libgtest-dev \${Version}\n' libgtest-dev" \
  libgtest-dev
