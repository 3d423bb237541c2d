#!/usr/bin/env bash
# Idempotent, cached, offline-friendly install of code-server (VS Code's server + browser workbench) from the npm
# registry into .vscode-test/code-server/ (gitignored). Used by the integration/e2e harness in test/vscode/.
#
#   scripts/install-code-server.sh            # installs code-server@4.100.3 (VS Code 1.100.3, runs on Node 20)
#   CODE_SERVER_VERSION=4.100.3 CODE_SERVER_DIR=/abs/dir scripts/install-code-server.sh
#
# Needs: root (or passwordless apt) for the two Debian packages below if they are missing; the npm registry.
# GitHub is NOT needed: the four ways a plain `npm install code-server` fails offline are fixed here
# (see test/vscode/README.md):
#   1. "Please pass --unsafe-perm"        -> npm_config_unsafe_perm=true (code-server's postinstall root check)
#   2. gssapi/gssapi.h missing            -> apt-get install libkrb5-dev (native 'kerberos' module)
#   3. ENOTFOUND api.github.com           -> seed @vscode/ripgrep's download cache with Debian's rg
#   4. "npx canceled due to missing pkgs" -> npm_config_yes=true (node-pty runs `npx node-gyp`)
# plus npm_config_nodedir=/usr so node-gyp uses the local Node headers instead of downloading them.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VER=${CODE_SERVER_VERSION:-4.100.3}
DEST=${CODE_SERVER_DIR:-$ROOT/.vscode-test/code-server}
BIN="$DEST/node_modules/.bin/code-server"
NODEDIR=${NODE_HEADERS_DIR:-/usr}

# Run the binary with throwaway config dirs so --version never writes into the real HOME.
cs_version() {
  local scratch="$DEST/.tmp/version-check"
  mkdir -p "$scratch"
  HOME="$scratch" XDG_CONFIG_HOME="$scratch/xdg" XDG_DATA_HOME="$scratch/xdg-data" timeout 60 "$BIN" --version 2>/dev/null \
    | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -1
}

# --- fast path: already installed at the wanted version -----------------------------------------------------------
if [ -x "$BIN" ]; then
  have=$(cs_version || true)
  if [ "${have%% *}" = "$VER" ]; then
    echo "code-server $have already installed in $DEST"
    exit 0
  fi
  echo "code-server in $DEST reports '${have:-nothing}', wanted $VER: reinstalling"
fi

echo "installing code-server@$VER into $DEST (node $(node -v), headers from $NODEDIR)"
t0=$(date +%s)

# --- system packages, only if missing -------------------------------------------------------------------------------
need=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
# node-gyp toolchain (normally present; a minimal image may lack it)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  echo "apt-get install ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
RG=$(command -v rg) || { echo "ripgrep (rg) is required but could not be installed" >&2; exit 1; }

# --- clean slate for a (re)install; keep nothing half-done -----------------------------------------------------------
rm -rf "$DEST/node_modules" "$DEST/package-lock.json" "$DEST/.tmp"
mkdir -p "$DEST"
echo '{"name":"code-server-host","private":true,"description":"test-only host for code-server; not part of the extension"}' > "$DEST/package.json"

# --- seed @vscode/ripgrep's cache (its postinstall would download rg from GitHub) -----------------------------------
# The postinstall first looks for $TMPDIR/vscode-ripgrep-cache-<pkgver>/ripgrep-<tag>-<target>.tar.gz.
export TMPDIR="$DEST/.tmp"
SEED="$TMPDIR/seed"
mkdir -p "$SEED"
( cd "$SEED"
  npm pack --silent "code-server@$VER" >/dev/null
  RGVER=$(tar xzOf "code-server-$VER.tgz" package/lib/vscode/npm-shrinkwrap.json | node -e '
    let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
      const p = JSON.parse(s).packages || {}; console.log((p["node_modules/@vscode/ripgrep"] || {}).version || "");
    });')
  if [ -n "$RGVER" ]; then   # newer code-server uses @vscode/ripgrep-universal instead: nothing to seed
    npm pack --silent "@vscode/ripgrep@$RGVER" >/dev/null
    RGTAG=$(tar xzOf "vscode-ripgrep-$RGVER.tgz" package/lib/postinstall.js | sed -n "s/^const VERSION = '\(.*\)';/\1/p")
    [ -n "$RGTAG" ] || { echo "could not read the ripgrep release tag from @vscode/ripgrep@$RGVER" >&2; exit 1; }
    mkdir -p "$TMPDIR/vscode-ripgrep-cache-$RGVER"
    cp "$RG" ./rg
    for target in x86_64-unknown-linux-musl aarch64-unknown-linux-musl aarch64-unknown-linux-gnu; do
      tar czf "$TMPDIR/vscode-ripgrep-cache-$RGVER/ripgrep-$RGTAG-$target.tar.gz" rg
    done
    echo "seeded ripgrep cache: @vscode/ripgrep@$RGVER tag $RGTAG with $RG"
  fi )

# --- install ---------------------------------------------------------------------------------------------------------
cd "$DEST"
export npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir="$NODEDIR"
if ! npm install --no-audit --no-fund --no-save --foreground-scripts "code-server@$VER" > "$DEST/install.log" 2>&1; then
  tail -40 "$DEST/install.log"
  echo "npm install code-server@$VER failed; full log: $DEST/install.log" >&2
  exit 1
fi
have=$(cs_version || true)
if [ "${have%% *}" != "$VER" ]; then
  echo "code-server installed but '$BIN --version' printed '${have:-nothing}' (wanted $VER); see $DEST/install.log" >&2
  exit 1
fi
rm -rf "$SEED"
echo "code-server $have installed in $DEST in $(( $(date +%s) - t0 )) s"
