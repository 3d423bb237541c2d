#!/usr/bin/env bash
# Installs Debian's Chromium (used headless by Playwright in test/vscode/browser.ts) if /usr/bin/chromium is missing.
# Never use `npx playwright install` here: it downloads from a CDN these machines cannot reach.
set -euo pipefail
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
# A CJK font so screenshots of the recorded (Japanese) sessions show text, not empty boxes.
FONTS=fonts-ipafont-gothic
if [ -x "$CHROMIUM" ] && dpkg -s "$FONTS" >/dev/null 2>&1; then
  echo "chromium already installed: $("$CHROMIUM" --version 2>/dev/null | head -1)"
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
t0=$(date +%s)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium "$FONTS"
[ -x "$CHROMIUM" ] || { echo "apt installed chromium but $CHROMIUM is not there; set CHROMIUM_PATH" >&2; exit 1; }
echo "chromium installed in $(( $(date +%s) - t0 )) s: $("$CHROMIUM" --version 2>/dev/null | head -1)"
