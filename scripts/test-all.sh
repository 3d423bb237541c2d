#!/usr/bin/env bash
# `npm test`: every test, in order of cost. Installs what the tests need (Debian's pytest and Black, Go, RSpec and Maven with a
# JDK for the checks on Python, Go, Ruby and Maven projects, GoogleTest for a C++ one; for the real-VS-Code tests Debian Chromium and code-server
# from npm into .vscode-test/; all cached) and ends with one summary line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-output
passed=0; failed=0; failed_suites=()
count() { # suite-name json-result-file
  local p f
  p=$(node -e 'try{const r=require(require("path").resolve(process.argv[1]));console.log(r.stats?r.stats.passes:r.passes)}catch{console.log(0)}' "$2")
  f=$(node -e 'try{const r=require(require("path").resolve(process.argv[1]));console.log(r.stats?r.stats.failures:r.failures)}catch{console.log(1)}' "$2")
  passed=$((passed + p)); failed=$((failed + f))
  [ "$f" = "0" ] || failed_suites+=("$1")
}
run_mocha() { # name, mocha args...
  local name=$1; shift
  echo; echo "=== $name"
  rm -f "test-output/$name.json"
  npx mocha "$@" --reporter ./scripts/mocha-dual-reporter.cjs --reporter-option "json=test-output/$name.json"
  local rc=$?
  count "$name" "test-output/$name.json"
  [ $rc -eq 0 ] || [[ " ${failed_suites[*]} " == *" $name "* ]] || { failed=$((failed + 1)); failed_suites+=("$name"); }
}
set -e
# Guard rails first: import boundaries (eslint.config.mjs) and each world's own types (tsconfig.*.json).
npm run lint
npm run typecheck
npm run build
npx tsc -p .
bash scripts/install-pytest.sh || { echo "pytest install failed"; exit 1; }
bash scripts/install-black.sh || { echo "black install failed"; exit 1; }
bash scripts/install-go.sh || { echo "go install failed"; exit 1; }
bash scripts/install-rust.sh || { echo "rust install failed"; exit 1; }
bash scripts/install-rspec.sh || { echo "rspec install failed"; exit 1; }
bash scripts/install-maven.sh || { echo "maven install failed"; exit 1; }
bash scripts/install-gtest.sh || { echo "googletest install failed"; exit 1; }
set +e
run_mocha unit --config .mocharc.json
bash scripts/install-chromium.sh || { echo "chromium install failed"; exit 1; }
run_mocha webview --no-config --exit --timeout 60000 'out/test/webview/**/*.test.js'
bash scripts/install-code-server.sh || { echo "code-server install failed"; exit 1; }
echo; echo "=== integration (mocha inside the extension host of code-server)"
node out/test/vscode/runIntegration.js --workspace-template test/demo/workspace --timeout 600
irc=$?
count integration test-output/integration-result.json
[ $irc -eq 0 ] || [[ " ${failed_suites[*]} " == *" integration "* ]] || { failed=$((failed + 1)); failed_suites+=(integration); }
run_mocha e2e --no-config --require out/test/helpers/tmpRoot.js --exit --timeout 300000 'out/test/e2e/**/*.test.js'
echo
[ ${#failed_suites[@]} -eq 0 ] || echo "failed suites: ${failed_suites[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
