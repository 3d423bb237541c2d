// Init's workspace facts, the task runners' part (src/core/cape/initFactsTasks.ts): the root's Makefile, justfile,
// Taskfile.yml or tox.ini with each target and the commands it runs (tool lines, not `@echo` or `$(if …)` plumbing; a
// target that only runs others names them; tox.ini's envlist and environments), the checking ones first, within its
// bound, the files sharing it; after the check commands, read once.
import * as assert from 'assert';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { tasksPart } from '../../src/core/cape/initFactsTasks';
import { noSources, walkFiles } from '../../src/core/cape/initFactsText';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile, recordingPolicy } from '../helpers/codebase';

/** gorilla/mux's Makefile, as it is. */
const MUX_MAKEFILE = `GO_LINT=$(shell which golangci-lint 2> /dev/null || echo '')
GO_LINT_URI=github.com/golangci/golangci-lint/cmd/golangci-lint@latest

GO_SEC=$(shell which gosec 2> /dev/null || echo '')
GO_SEC_URI=github.com/securego/gosec/v2/cmd/gosec@latest

.PHONY: golangci-lint
golangci-lint:
\t$(if $(GO_LINT), ,go install $(GO_LINT_URI))
\t@echo "##### Running golangci-lint"
\tgolangci-lint run -v
\t
.PHONY: gosec
gosec:
\t$(if $(GO_SEC), ,go install $(GO_SEC_URI))
\t@echo "##### Running gosec"
\tgosec ./...

.PHONY: verify
verify: golangci-lint gosec

.PHONY: test
test:
\t@echo "##### Running tests"
\tgo test -race -cover -coverprofile=coverage.coverprofile -covermode=atomic -v ./...`;

describe("init: the facts give the task runners' targets and the commands they run", function () {
  this.timeout(20000);

  it("a Makefile: each target's tool lines, a target of targets by their names, the checking ones first; in the facts after the check commands", async () => {
    const ws = tempDir('cape-facts-make-');
    putFile(ws, 'go.mod', 'module example.com/mux\n\ngo 1.20\n');
    putFile(ws, 'mux.go', 'package mux\n');
    putFile(ws, 'Makefile', MUX_MAKEFILE);
    const facts = (await readWorkspaceFacts(ws))!;
    assert.strictEqual(
      factsPart(facts.text, 'Makefile'),
      [
        '## Makefile (its targets and the commands they run; named here, not run)',
        '- `make verify`: runs golangci-lint, gosec',
        '- `make golangci-lint`: golangci-lint run -v',
        '- `make test`: go test -race -cover -coverprofile=coverage.coverprofile -covermode=atomic -v ./...',
        '- `make gosec`: gosec ./...',
      ].join('\n'),
    );
    assert.ok(facts.text.indexOf('## Makefile') > facts.text.indexOf('## Check commands'), facts.text);
    assert.ok(facts.files.includes('Makefile'));
    assert.match(facts.text, /to run and ship it: Makefile/, "the layout's root line still names it");
  });

  it("a Makefile's own variables and `$@` in place, as make would run the recipe; make's own, the environment's and $(shell …) values as written", () => {
    const ws = tempDir('cape-facts-make-vars-');
    putFile(
      ws,
      'Makefile',
      [
        'CC = gcc',
        'CFLAGS = -O0 -g -Wall -std=c89 # strict',
        'CFLAGS += -DTESTS_MAIN',
        'CC ?= clang',
        'LINT := $(shell which cppcheck)',
        'ALL = $(ALL) x',
        '.PHONY: test lint',
        'test: tests.c lib.c',
        '\t$(CC) $(CFLAGS) -o $@ tests.c lib.c',
        '\t./$@',
        'lint:',
        '\t$(LINT) --enable=all ${SRC} $(ALL)',
        '\t$(MAKE) -C docs check',
      ].join('\n'),
    );
    const { policy } = recordingPolicy(ws);
    const part = tasksPart(walkFiles(policy, { kept: [], rootFiles: ['Makefile'] }), noSources(), 4000, { scale: 1 })!;
    assert.match(part, /^- `make test`: gcc -O0 -g -Wall -std=c89 -DTESTS_MAIN -o test tests\.c lib\.c; \.\/test$/m);
    assert.match(part, /^- `make lint`: \$\(LINT\) --enable=all \$\{SRC\} \$\(ALL\); \$\(MAKE\) -C docs check$/m);
  });

  it('a justfile and a Taskfile.yml the same way; private recipes, internal tasks, variables and settings are no targets', () => {
    const ws = tempDir('cape-facts-just-');
    putFile(
      ws,
      'justfile',
      [
        'set shell := ["bash", "-c"]',
        'version := `git describe`',
        'alias t := test',
        '',
        '# run the tests',
        'test *args: _build',
        '    cargo test {{args}}',
        '',
        '[private]',
        '_build:',
        '    @echo building',
        '    cargo build',
        '',
        'check: lint test',
        '',
        'lint:',
        '  -cargo clippy -- -D warnings',
        '',
      ].join('\n'),
    );
    putFile(ws, 'Taskfile.yml', "version: '3'\ntasks:\n  build:\n    cmds:\n      - go build ./...\n  ci:\n    deps: [build]\n    cmds:\n      - task: lint\n      - cmd: go test ./...\n  lint: golangci-lint run\n  setup:\n    internal: true\n    cmds: [go mod download]\n");
    const { policy } = recordingPolicy(ws);
    const part = tasksPart(walkFiles(policy, { kept: [], rootFiles: ['justfile', 'Taskfile.yml'] }), noSources(), 2000, { scale: 1 })!;
    assert.strictEqual(
      part,
      [
        '## justfile (its targets and the commands they run; named here, not run)',
        '- `just check`: runs lint, test',
        '- `just test`: cargo test {{args}}',
        '- `just lint`: cargo clippy -- -D warnings',
        '',
        '## Taskfile.yml (its targets and the commands they run; named here, not run)',
        '- `task ci`: task lint; go test ./...',
        '- `task lint`: golangci-lint run',
        '- `task build`: go build ./...',
      ].join('\n'),
    );
  });

  it("a Taskfile's multi-line `cmd` block is one command a line, as a CI step's script: comments skipped, `\\` lines joined", () => {
    const ws = tempDir('cape-facts-taskfile-block-');
    const block = ['# the checks', 'go vet ./...', 'go test \\', '  -race ./...', ''].map((l) => `        ${l}`).join('\n');
    putFile(ws, 'Taskfile.yml', `version: '3'\ntasks:\n  check:\n    cmds:\n      - |\n${block}\n      - cmd: |\n          golangci-lint run\n          echo done\n`);
    const { policy } = recordingPolicy(ws);
    assert.strictEqual(
      tasksPart(walkFiles(policy, { kept: [], rootFiles: ['Taskfile.yml'] }), noSources(), 2000, { scale: 1 }),
      '## Taskfile.yml (its targets and the commands they run; named here, not run)\n- `task check`: go vet ./...; go test -race ./...; golangci-lint run',
    );
  });

  it("a tox.ini: its envlist, then [testenv]'s commands and each environment's as `tox -e name`, {toxinidir} dropped; a Makefile beside it shares the room", async () => {
    const ws = tempDir('cape-facts-tox-');
    putFile(ws, 'pyproject.toml', '[project]\nname = "calc"\n');
    putFile(ws, 'calc.py', 'def add(a, b):\n    return a + b\n');
    const tox = [
      '[tox]',
      'envlist = py{310, 311}, flake8, docs',
      '',
      '[testenv]',
      'commands =',
      '    coverage run --source=calc -m unittest discover {toxinidir}/tests',
      '    coverage report',
      '',
      '[testenv:pygments]',
      'deps = pygments',
      '',
      '[testenv:docs]',
      'commands = {envpython} -m mkdocs build --config-file {toxinidir}/mkdocs.yml',
      '',
      '[testenv:flake8]',
      'commands = flake8 {toxinidir}/calc {toxinidir}/tests',
      '',
    ].join('\n');
    putFile(ws, 'tox.ini', tox);
    const facts = (await readWorkspaceFacts(ws))!;
    assert.strictEqual(
      factsPart(facts.text, 'tox.ini'),
      [
        '## tox.ini (its environments and the commands they run; named here, not run)',
        '- envlist: py{310, 311}, flake8, docs',
        '- `[testenv]` (any environment without its own): coverage run --source=calc -m unittest discover tests; coverage report',
        '- `tox -e flake8`: flake8 calc tests',
        '- `tox -e docs`: {envpython} -m mkdocs build --config-file mkdocs.yml',
      ].join('\n'),
    );
    assert.ok(facts.files.includes('tox.ini'));
    assert.match(facts.text, /to run and ship it: tox\.ini/, "the layout's root line names it");

    // a Makefile whose long recipes would fill the part leaves tox.ini its share
    const clean = Array.from({ length: 30 }, (_, i) => `\trm -rf build/part-${i}`).join('\n');
    putFile(ws, 'Makefile', `clean:\n${clean}\n\nbuild:\n${clean}\n\ntest:\n\tpython -m unittest\n`);
    const { policy } = recordingPolicy(ws);
    const part = tasksPart(walkFiles(policy, { kept: [], rootFiles: ['Makefile', 'tox.ini'] }), noSources(), 800, { scale: 1 })!;
    assert.ok(part.length <= 800, `${part.length}`);
    assert.match(part, /^## Makefile .*\n- `make build`: rm -rf build\/part-0;.*\n(?:.*\n)*- … \d more targets\n\n## tox\.ini/m, 'the Makefile cut to its share');
    assert.match(part, /^- envlist: py\{310, 311\}, flake8, docs$/m);
    assert.match(part, /^- `tox -e flake8`: flake8 calc tests$/m);
    // a file whose whole block is short is shown whole
    putFile(ws, 'Makefile', 'lint:\n\tflake8\n');
    const small = tasksPart(walkFiles(recordingPolicy(ws).policy, { kept: [], rootFiles: ['Makefile'] }), noSources(), 800, { scale: 1 });
    assert.strictEqual(small, '## Makefile (its targets and the commands they run; named here, not run)\n- `make lint`: flake8');
  });

  it('stays within its bound, counting the targets left out, and reads the file once per walk whatever the scale', () => {
    const ws = tempDir('cape-facts-make-big-');
    const targets = Array.from({ length: 60 }, (_, i) => `step-${i}:\n\tnode scripts/step-${i}.js --with-a-long-option=${'x'.repeat(40)}\n`).join('\n');
    putFile(ws, 'Makefile', `test:\n\tnpm test\n\n${targets}`);
    const { policy, read } = recordingPolicy(ws);
    const walk = walkFiles(policy, { kept: [], rootFiles: ['Makefile'] });
    const part = tasksPart(walk, noSources(), 400, { scale: 1 })!;
    assert.ok(part.length <= 400, `${part.length}`);
    assert.match(part, /^- `make test`: npm test$/m);
    assert.match(part, /\n- … \d+ more targets$/);
    assert.ok(tasksPart(walk, noSources(), 800, { scale: 2 })!.length > part.length);
    assert.deepStrictEqual(read, ['Makefile']);
    assert.strictEqual(tasksPart(walkFiles(policy, { kept: [], rootFiles: ['README.md'] }), noSources(), 400, { scale: 1 }), null, 'no task file: no part');
  });
});
