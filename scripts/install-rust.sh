#!/usr/bin/env bash
# Installs Debian's Rust toolchain with clippy (test/cli/rust.test.ts runs the checks on a Rust crate with the real
# `cargo clippy` and `cargo test`) unless `cargo clippy` already runs (rustup's toolchain, where a machine has it).
exec bash "$(dirname "$0")/apt-tool.sh" rust 'cargo clippy --version' cargo rust-clippy
