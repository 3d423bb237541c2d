// Init's workspace facts, the CI part (src/core/cape/initFactsCi.ts, initFactsCiRank.ts): the CI files in the order of
// how much they say about how a change is checked — those whose steps run tests, linters, type checks or builds (a
// package script by its own command) or that are named for it first, those that keep the repository or ship it
// (labels, releases, deploys, bumps) after them, those whose steps run no tool last — and a step's script with the
// lines that run tools before its shell plumbing; with its bound on the files read.
import * as assert from 'assert';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { ciPart } from '../../src/core/cape/initFactsCi';
import { ciRank, isSetup, splitCommands } from '../../src/core/cape/initFactsCiRank';
import { noSources, walkFiles } from '../../src/core/cape/initFactsText';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile, recordingPolicy } from '../helpers/codebase';

/** A GitHub workflow named `name` whose one job runs `steps` (each a `run:` text, a list item's YAML as given). */
const workflow = (name: string, steps: string[]) =>
  `name: ${name}\non:\n  push:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${steps.map((s) => `      - ${s}\n`).join('')}`;

/** The workflows' file names in the order the CI part shows them. */
const shownOrder = (ci: string) => [...ci.matchAll(/^- \.github\/workflows\/([^ ]+) /gm)].map((m) => m[1]);

describe('init: the CI part shows first the files that check a change', function () {
  this.timeout(20000);

  it('orders the workflows: checking ones (most checks first), other commands, bookkeeping, no commands', async () => {
    const ws = tempDir('cape-facts-ci-order-');
    putFile(ws, 'package.json', JSON.stringify({ name: 'order', scripts: { verify: 'tsc --noEmit && vitest run', dev: 'vite' } }));
    putFile(ws, 'src/index.ts', 'export {};\n');
    // in walk (name) order these come first: an action-only project board, a release script, a label sync
    putFile(ws, '.github/workflows/add-to-project.yml', 'name: Add to Project\non: issues\njobs:\n  a:\n    steps:\n      - uses: actions/add-to-project@v1\n');
    putFile(ws, '.github/workflows/bump-hooks.yml', workflow('Bump hooks', ['run: uv run prek auto-update', 'run: git push origin bump']));
    putFile(ws, '.github/workflows/labels.yml', workflow('Labels', ['run: gh label sync']));
    putFile(ws, '.github/workflows/docs-site.yml', workflow('Docs site', ['run: mkdocs gh-deploy']));
    putFile(ws, '.github/workflows/release.yml', workflow('Release', ['run: npm run build', 'run: npm publish']));
    putFile(ws, '.github/workflows/smoke.yml', workflow('Smoke', ['run: docker compose build']));
    // a workflow named for checking, and one whose only step runs the project's script that type-checks and tests
    putFile(ws, '.github/workflows/test-backend.yml', workflow('Test Backend', ['run: uv sync', 'run: uv run pytest']));
    putFile(ws, '.github/workflows/verify.yml', workflow('Main', ['run: npm ci', 'run: npm run verify', 'run: npx eslint .']));
    const ci = factsPart((await readWorkspaceFacts(ws))!.text, 'CI configuration');
    assert.deepStrictEqual(shownOrder(ci), [
      'verify.yml',
      'test-backend.yml',
      'smoke.yml',
      'docs-site.yml',
      'bump-hooks.yml',
      'labels.yml',
      'release.yml',
      'add-to-project.yml',
    ]);
    assert.match(ci, /^- \.github\/workflows\/verify\.yml \(GitHub Actions; "Main", on push\): npm run verify; npx eslint \.$/m);
  });

  it("puts a step's tool lines before its shell plumbing, so a long script still shows what it runs", async () => {
    const ws = tempDir('cape-facts-ci-script-');
    putFile(ws, 'package.json', '{"name":"script"}');
    putFile(ws, 'src/index.ts', 'export {};\n');
    const plumbing = [
      'set -euo pipefail',
      ...Array.from({ length: 12 }, (_, i) => `echo "::group::preparing the environment, stage ${i}"`),
      'if [ -n "$CI" ]; then',
      '  git config user.name "ci-bot[bot]"',
      'fi',
      'VERSION="$(cat VERSION)"',
      'export NODE_OPTIONS=--max-old-space-size=4096',
    ];
    const script = [...plumbing, 'npm ci', 'npx vitest run \\', '  --coverage', 'npm run lint'].map((l) => `          ${l}\n`).join('');
    putFile(ws, '.github/workflows/ci.yml', `name: CI\non: push\njobs:\n  a:\n    steps:\n      - run: |\n${script}`);
    const ci = factsPart((await readWorkspaceFacts(ws))!.text, 'CI configuration');
    // the tool lines first, a command continued over lines as one; the plumbing after them, cut with its count
    assert.match(ci, /^- \.github\/workflows\/ci\.yml \(GitHub Actions; "CI", on push\): npx vitest run --coverage; npm run lint; set -euo pipefail; echo .*; … \d+ more$/m);
  });

  it('leaves out the commands that only set up the job: package installs, writes to $GITHUB_ENV, $GITHUB_PATH or $GITHUB_OUTPUT', async () => {
    // dtolnay/semver's ci.yml, shortened: a step that sets RUSTFLAGS for the job, a job that installs node-semver
    const ws = tempDir('cape-facts-ci-setup-');
    putFile(ws, 'Cargo.toml', '[package]\nname = "semver"\n');
    putFile(ws, 'src/lib.rs', 'pub struct Version;\n');
    const steps = (...s: string[]) => `    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v6\n      - uses: dtolnay/rust-toolchain@stable\n${s.map((x) => `      - ${x}\n`).join('')}`;
    putFile(
      ws,
      '.github/workflows/ci.yml',
      `name: CI\non:\n  push:\njobs:\n  test:\n${steps(
        "name: Enable type layout randomization\n        run: echo RUSTFLAGS=${RUSTFLAGS}\\ -Zrandomize-layout >> $GITHUB_ENV\n        if: matrix.rust == 'nightly'",
        'run: cargo test',
        'run: cargo check --no-default-features',
      )}  node:\n${steps('run: npm install semver', 'run: cargo test\n        env:\n          RUSTFLAGS: --cfg test_node_semver')}  fuzz:\n${steps('uses: dtolnay/install@cargo-fuzz', 'run: cargo fuzz check')}`,
    );
    putFile(ws, '.github/workflows/tools.yml', workflow('Tools', ['run: sudo apt-get update && sudo apt-get install -y libssl-dev', 'run: |\n          cd web\n          npm ci']));
    const ci = factsPart((await readWorkspaceFacts(ws))!.text, 'CI configuration');
    assert.match(ci, /^- \.github\/workflows\/ci\.yml \(GitHub Actions; "CI", on push\): cargo test; cargo check --no-default-features; cargo fuzz check$/m);
    assert.match(ci, /^- \.github\/workflows\/tools\.yml \(GitHub Actions; "Tools", on push\): setup commands only$/m);
  });

  it('isSetup: installs and writes to the job files are setup; a check, or a chain that runs one, is not', () => {
    for (const c of [
      'npm ci',
      'npm install semver',
      'pnpm i --frozen-lockfile',
      'yarn',
      'yarn install --immutable',
      'pip install -e .[dev]',
      'python -m pip install --upgrade pip',
      'uv sync --all-extras',
      'uv pip install -r requirements.txt',
      'poetry install --with dev',
      'sudo apt-get install -y libpq-dev',
      'cargo install cargo-outdated',
      'rustup component add clippy',
      'go install golang.org/x/tools/cmd/goimports@latest',
      'go mod download',
      'gem install bundler',
      'bundle install --jobs 4',
      'npx playwright install --with-deps',
      'echo "$HOME/.local/bin" >> $GITHUB_PATH',
      'echo "version=${VERSION}" >> "${GITHUB_OUTPUT}"',
      'cd frontend && npm ci',
    ]) {
      assert.ok(isSetup(c), `setup: ${c}`);
    }
    for (const c of ['npm test', 'npm run install-check', 'uv run pytest', 'cargo test --features install', 'npx playwright test', 'go test ./...', 'npm ci && npm test', 'echo done', 'pip-audit']) {
      assert.ok(!isSetup(c), `not setup: ${c}`);
    }
    // an install of a test tool is no check: a workflow that only installs ranks as running no tool
    assert.deepStrictEqual(ciRank(['deps'], splitCommands(['pip install pytest', 'cargo install cargo-clippy']).tools, new Map()), { tier: 3, score: 0 });
  });

  it("an action's inputs are no commands: github-script's `script` is JavaScript, not a step's shell", async () => {
    const ws = tempDir('cape-facts-ci-inputs-');
    putFile(ws, 'package.json', '{"name":"inputs"}');
    putFile(ws, 'src/index.ts', 'export {};\n');
    putFile(ws, '.github/workflows/a-guard.yml', workflow('Guard', ['uses: actions/github-script@v7\n        with:\n          script: |\n            const pr = context.payload.pull_request;']));
    putFile(ws, '.github/workflows/b-docs.yml', workflow('Docs', ['run: mkdocs build --strict']));
    const ci = factsPart((await readWorkspaceFacts(ws))!.text, 'CI configuration');
    assert.deepStrictEqual(shownOrder(ci), ['b-docs.yml', 'a-guard.yml']);
    assert.match(ci, /^- \.github\/workflows\/a-guard\.yml \(GitHub Actions; "Guard", on push\): no commands found$/m);
  });

  it('names the actions a workflow uses to check something (with their `args`), not those that set up, cache or upload', async () => {
    // gorilla/mux's workflows: security.yml and verify.yml run marketplace actions only, and read "no commands found"
    const ws = tempDir('cape-facts-ci-actions-');
    putFile(ws, 'go.mod', 'module example.com/mux\n\ngo 1.20\n');
    putFile(ws, 'mux.go', 'package mux\n');
    const setup = ['uses: actions/checkout@v3', 'uses: actions/setup-go@v4\n        with:\n          go-version: ${{ matrix.go }}', 'uses: actions/cache@v4'];
    putFile(ws, '.github/workflows/security.yml', workflow('Security', [...setup, 'name: Run GoSec\n        uses: securego/gosec@master\n        with:\n          args: -exclude-dir examples ./...', 'uses: golang/govulncheck-action@v1\n        with:\n          go-package: ./...']));
    putFile(ws, '.github/workflows/verify.yml', workflow('Verify', [...setup, 'uses: golangci/golangci-lint-action@v3\n        with:\n          version: v1.53\n          args: --timeout=5m']));
    putFile(ws, '.github/workflows/test.yml', workflow('Test', [...setup, 'run: go test -race ./...', 'uses: codecov/codecov-action@v3\n        with:\n          files: ./coverage', 'uses: actions/upload-artifact@v4']));
    putFile(ws, '.github/workflows/issues.yml', 'name: Add issue to Project\non: issues\njobs:\n  a:\n    steps:\n      - uses: actions/add-to-project@v0.5.0\n');
    const ci = factsPart((await readWorkspaceFacts(ws))!.text, 'CI configuration');
    assert.match(ci, /^- \.github\/workflows\/security\.yml \(GitHub Actions; "Security", on push\): uses securego\/gosec \(args: -exclude-dir examples \.\/\.\.\.\); uses golang\/govulncheck-action$/m);
    assert.match(ci, /^- \.github\/workflows\/verify\.yml \(GitHub Actions; "Verify", on push\): uses golangci\/golangci-lint-action \(args: --timeout=5m\)$/m);
    assert.match(ci, /^- \.github\/workflows\/test\.yml \(GitHub Actions; "Test", on push\): go test -race \.\/\.\.\.$/m);
    assert.match(ci, /^- \.github\/workflows\/issues\.yml \(GitHub Actions; "Add issue to Project", on issues\): no commands found$/m);
    // the workflows that check come before the project board's
    assert.strictEqual(shownOrder(ci).at(-1), 'issues.yml');
  });

  it('reads a bounded number of CI files, and never one the read policy refuses', () => {
    const ws = tempDir('cape-facts-ci-reads-');
    const paths: string[] = [];
    for (let i = 0; i < 80; i++) {
      const rel = `.github/workflows/flow-${String(i).padStart(2, '0')}.yml`;
      putFile(ws, rel, workflow(`Flow ${i}`, ['run: npm test']));
      paths.push(rel);
    }
    putFile(ws, '.gitignore', '.github/workflows/flow-00.yml\n');
    const { policy, read } = recordingPolicy(ws);
    const sources = noSources();
    const ci = ciPart(walkFiles(policy, { kept: paths, rootFiles: [] }), sources, 100_000, { scale: 1 })!;
    assert.ok(read.length > 0 && read.length <= 40, `${read.length} files read`);
    assert.ok(!read.includes('.github/workflows/flow-00.yml'), 'the ignored workflow is not read');
    assert.match(ci, /^- \.github\/workflows\/flow-00\.yml \(GitHub Actions; not read\)$/m);
    // every file is named, the ones read (which run the tests) first; the sources name only those read
    assert.strictEqual(shownOrder(ci).length, 80);
    assert.deepStrictEqual(shownOrder(ci).slice(0, read.length), read.map((r) => r.replace('.github/workflows/', '')));
    assert.deepStrictEqual(sources.files, read);
  });
});
