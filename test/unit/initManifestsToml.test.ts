// Init's workspace facts from the manifests that are not package.json (src/core/cape/initManifestsToml.ts and
// initManifestsGo.ts): pyproject.toml (PEP 621, PEP 735 dependency groups, Poetry, the uv/PDM/Hatch workspaces, the
// tools it configures), Cargo.toml and go.mod as fact lines with bounded lists; a manifest without dependencies
// saying so, package.json's too; and in the facts, a root pyproject.toml rendered as lines where its head would show
// another tool's settings, one that does not parse quoted by its head.
import * as assert from 'assert';
import { cargoFacts, pyprojectFacts } from '../../src/core/cape/initManifestsToml';
import { goModFacts } from '../../src/core/cape/initManifestsGo';
import { packageJsonLines } from '../../src/core/cape/initManifests';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { tempDir, writeFiles } from '../helpers/cli';

const put = (ws: string, rel: string, text: string) => writeFiles(ws, { [rel]: text });

/** A PEP 621 pyproject.toml as full-stack-fastapi-template's backend writes it, multi-line arrays and all. */
const PEP621 = `[project]
name = "app"
version = "0.1.0"
description = "The items API"
requires-python = ">=3.10,<4.0"
dependencies = [
    "fastapi[standard]>=0.114.2,<1.0.0",
    "python-multipart<1.0.0,>=0.0.7",
    "sqlmodel >= 0.0.21, < 1.0.0",
    'tomli>=1.1 ; python_version < "3.11"',
]

[project.optional-dependencies]
docs = ["mkdocs>=1.5", "mkdocs-material"]

[project.scripts]
app-cli = "app.cli:main"

[dependency-groups]
dev = [
    "pytest<8.0.0,>=7.4.3",
    "mypy<2.0.0,>=1.8.0",
    "ruff<1.0.0,>=0.2.2",
]
ci = [{ include-group = "dev" }, "coverage"]

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.mypy]
strict = true

[tool.ruff]
target-version = "py310"

[tool.ruff.lint]
select = ["E", "W"]

[tool.coverage.run]
source = ["app"]
`;

describe("init's facts: TOML and go.mod manifests as fact lines", () => {
  it('a PEP 621 pyproject.toml: name, requires-python, dependencies with their specs, groups by name, scripts, build backend, the tools configured', () => {
    const facts = pyprojectFacts(PEP621, 800)!;
    assert.deepStrictEqual(facts.lines, [
      '- name: app — The items API',
      '- version: 0.1.0',
      '- requires-python: >=3.10,<4.0',
      '- dependencies (4): fastapi[standard] >=0.114.2,<1.0.0, python-multipart <1.0.0,>=0.0.7, sqlmodel >=0.0.21,<1.0.0, tomli >=1.1 (python_version < "3.11")',
      '- optional-dependencies: docs: mkdocs mkdocs-material',
      '- dependency-groups: dev: pytest mypy ruff, ci: (dev) coverage',
      '- scripts: app-cli → app.cli:main',
      '- build backend: hatchling.build',
      '- tool settings: mypy, ruff, coverage',
    ]);
  });

  it("a Poetry pyproject.toml: its name, dependencies with their constraints or sources, its groups' names, its scripts", () => {
    const poetry = `[tool.poetry]
name = "anvil"
description = "Strikes anvils"

[tool.poetry.dependencies]
python = "^3.10"
requests = { version = "^2.31", extras = ["socks"] }
anvil-core = { path = "../core", develop = true }
hammer = { git = "https://example.com/hammer.git" }

[tool.poetry.group.dev.dependencies]
pytest = "^8.0"
black = "^24.1"

[tool.poetry.dev-dependencies]
flake8 = "*"

[tool.poetry.scripts]
anvil = "anvil.cli:run"

[build-system]
requires = ["poetry-core"]
build-backend = "poetry.core.masonry.api"
`;
    assert.deepStrictEqual(pyprojectFacts(poetry, 800)!.lines, [
      '- name: anvil — Strikes anvils',
      '- Poetry dependencies (4): python ^3.10, requests ^2.31, anvil-core (path ../core), hammer (git)',
      '- Poetry groups: dev: pytest black, dev-dependencies: flake8',
      '- Poetry scripts: anvil → anvil.cli:run',
      '- build backend: poetry.core.masonry.api',
      '- tool settings: poetry',
    ]);
  });

  it('the workspace members of uv, PDM and Hatch as a fact line; a long list cut with how many more', () => {
    const uv = `[tool.uv.workspace]\nmembers = ["backend", "packages/*"]\nexclude = ["packages/legacy"]\n\n[tool.pdm.workspace]\nmembers = ["tools/pdm-one"]\n\n[tool.hatch.envs.default]\nworkspace.members = [{ path = "libs/core", features = ["dev"] }, "libs/cli"]\n`;
    const facts = pyprojectFacts(uv, 800)!;
    assert.ok(facts.lines.includes('- workspace members: backend, packages/*, tools/pdm-one, libs/core, libs/cli'), facts.lines.join('\n'));
    const many = `[project]\nname = "big"\ndependencies = [${Array.from({ length: 60 }, (_, i) => `"dependency-number-${i}>=1.0"`).join(', ')}]\n`;
    const line = pyprojectFacts(many, 300)!.lines[1];
    assert.match(line, /^- dependencies \(60\): dependency-number-0 >=1\.0, .*, … (\d+) more$/);
    assert.ok(line.length <= 300 + '- dependencies (60): '.length, `${line.length}`);
  });

  it('a Cargo.toml: the package, its dependencies as Cargo writes them, features, bins, the workspace and its members', () => {
    const cargo = `[package]
name = "anvil"
description = "A strike engine"
edition = "2021"
rust-version = "1.74"

[dependencies]
serde = { version = "1.0", features = ["derive"] }
tokio = "1"
anvil-core = { path = "../core" }
log.workspace = true

[dev-dependencies]
criterion = "0.5"

[features]
default = ["fast"]
fast = []

[[bin]]
name = "anvil"
path = "src/main.rs"

[[bin]]
name = "anvil-bench"

[workspace]
members = ["crates/*"]
exclude = ["crates/old"]

[workspace.dependencies]
log = "0.4"
`;
    const facts = cargoFacts(cargo, 800)!;
    assert.deepStrictEqual(facts.lines, [
      '- name: anvil — A strike engine',
      '- edition: 2021',
      '- rust-version: 1.74',
      '- dependencies (4): serde 1.0, tokio 1, anvil-core (path ../core), log (workspace)',
      '- dev-dependencies (1): criterion 0.5',
      '- features (2): default, fast',
      '- bin: anvil, anvil-bench',
      '- workspace members: crates/*',
      '- workspace dependencies (1): log 0.4',
    ]);
    assert.deepStrictEqual(cargoFacts('[package]\nname = "member"\nedition.workspace = true\n', 800)!.lines, ['- name: member', "- edition: (the workspace's)", '- dependencies: none']);
  });

  it('a manifest that declares no dependencies says so, as a go.mod that requires nothing does', () => {
    // dtolnay/semver's Cargo.toml: a package, its features, no [dependencies] table
    const semver = `[package]\nname = "semver"\nversion = "1.0.27"\nedition = "2021"\nrust-version = "1.68"\n\n[features]\ndefault = ["std"]\nstd = []\n\n[package.metadata.docs.rs]\ntargets = ["x86_64-unknown-linux-gnu"]\n`;
    assert.deepStrictEqual(cargoFacts(semver, 800)!.lines, ['- name: semver', '- version: 1.0.27', '- edition: 2021', '- rust-version: 1.68', '- dependencies: none', '- features (2): default, std']);
    // dev-dependencies only: still none of its own
    assert.ok(cargoFacts('[package]\nname = "a"\n\n[dev-dependencies]\ncriterion = "0.5"\n', 800)!.lines.includes('- dependencies: none'));
    // a virtual workspace declares no package, and a crate whose dependencies are all per target has some: no "none"
    const noNone = (lines: string[]) => assert.ok(!lines.some((l) => l.startsWith('- dependencies')), lines.join('\n'));
    noNone(cargoFacts('[workspace]\nmembers = ["crates/*"]\n', 800)!.lines);
    noNone(cargoFacts('[package]\nname = "a"\n\n[target.\'cfg(windows)\'.dependencies]\nwindows-sys = "0.59"\n', 800)!.lines);
    // a PEP 621 project without dependencies; not a pyproject of tool settings alone, dynamic ones or Poetry's
    assert.deepStrictEqual(pyprojectFacts('[project]\nname = "tiny"\nrequires-python = ">=3.9"\n', 800)!.lines, ['- name: tiny', '- requires-python: >=3.9', '- dependencies: none']);
    noNone(pyprojectFacts('[tool.ruff]\nline-length = 100\n', 800)!.lines);
    noNone(pyprojectFacts('[project]\nname = "a"\ndynamic = ["dependencies", "version"]\n', 800)!.lines);
    assert.ok(!pyprojectFacts('[tool.poetry]\nname = "a"\n\n[tool.poetry.dependencies]\npython = "^3.10"\n', 800)!.lines.includes('- dependencies: none'));
    // a package.json with development dependencies only; not one whose package needs its peers
    assert.deepStrictEqual(packageJsonLines({ name: 'zero', devDependencies: { mocha: '^10.0.0' } }), ['- name: zero', '- dependencies: none', '- devDependencies (1): mocha ^10.0.0']);
    noNone(packageJsonLines({ name: 'ui', peerDependencies: { react: '>=18' } }));
  });

  it("each manifest kind gives its version after its name: the current release a project file may name", () => {
    assert.deepStrictEqual(packageJsonLines({ name: 'commander', version: '15.0.0-0' }).slice(0, 2), ['- name: commander', '- version: 15.0.0-0']);
    assert.deepStrictEqual(pyprojectFacts('[tool.poetry]\nname = "a"\nversion = "2.1.0"\n', 800)!.lines.slice(0, 2), ['- name: a', '- version: 2.1.0']);
    assert.deepStrictEqual(cargoFacts('[package]\nname = "m"\nversion.workspace = true\n', 800)!.lines.slice(0, 2), ['- name: m', "- version: (the workspace's)"]);
    // the root that declares the shared version, and a virtual root, give the number
    assert.deepStrictEqual(cargoFacts('[workspace.package]\nversion = "0.4.2"\n\n[package]\nname = "m"\nversion.workspace = true\n', 800)!.lines.slice(0, 2), ['- name: m', '- version: 0.4.2']);
    assert.deepStrictEqual(cargoFacts('[workspace]\nmembers = ["a"]\n\n[workspace.package]\nversion = "0.4.2"\n', 800)!.lines[0], '- version: 0.4.2');
    assert.ok(!pyprojectFacts('[project]\nname = "a"\ndynamic = ["version"]\n\n[tool.poetry]\nversion = "0.0.0"\n', 800)!.lines.some((l) => l.startsWith('- version')));
    // none said where the manifest gives none, or not as text
    assert.ok(!packageJsonLines({ name: 'x', version: 3 }).some((l) => l.startsWith('- version')));
    assert.ok(!pyprojectFacts('[project]\nname = "a"\ndynamic = ["version"]\n', 800)!.lines.some((l) => l.startsWith('- version')));
  });

  it('a file that is not valid TOML has no lines, nor one nested deeper than the parser takes', () => {
    assert.strictEqual(pyprojectFacts('[project\nname = "x"\n', 800), null);
    assert.strictEqual(cargoFacts('[package]\nname = "a"\nname = "b"\n', 800), null, 'a key defined twice');
    assert.strictEqual(pyprojectFacts(`a = ${'['.repeat(100_000)}`, 800), null);
  });

  it('a go.mod: module, go version, toolchain, the direct requirements with their versions, the indirect ones counted, the tools', () => {
    const gomod = `// the API
module "example.com/anvil"

go 1.22

toolchain go1.22.3

require github.com/spf13/cobra v1.8.0

require (
\tgithub.com/stretchr/testify v1.9.0
\tgolang.org/x/sys v0.20.0 // indirect
\tgithub.com/davecgh/go-spew v1.1.1 // indirect; used by testify
)

tool golang.org/x/tools/cmd/stringer

replace example.com/old => ../old
`;
    assert.deepStrictEqual(goModFacts(gomod, 800).lines, [
      '- module: example.com/anvil',
      '- go: 1.22',
      '- toolchain: go1.22.3',
      '- require (2 direct, 2 indirect): github.com/spf13/cobra v1.8.0, github.com/stretchr/testify v1.9.0',
      '- tool: golang.org/x/tools/cmd/stringer',
    ]);
    assert.deepStrictEqual(goModFacts('module m\n\nrequire (\n\tx.org/a v1.0.0 // indirect\n)\n', 800).lines, ['- module: m', '- require: 1 indirect']);
    // gorilla/mux's: a module that requires nothing says so, or a model cannot tell "standard library only" from unread
    assert.deepStrictEqual(goModFacts('module github.com/gorilla/mux\n\ngo 1.20\n', 800).lines, [
      '- module: github.com/gorilla/mux',
      '- go: 1.20',
      '- require: none (it imports only the standard library and its own packages)',
    ]);
  });

  it('in the facts: a root pyproject.toml as fact lines, not its head of tool settings; one that does not parse quoted by its head', async () => {
    const ws = tempDir('cape-facts-toml-');
    // the head is another tool's settings: the project comes after what a head of 500 characters shows
    put(ws, 'pyproject.toml', `[tool.typos.files]\nextend-exclude = [\n${'    "a/generated/folder/",\n'.repeat(30)}]\n\n${PEP621}`);
    put(ws, 'app/main.py', 'app = 1\n');
    const t = (await readWorkspaceFacts(ws))!.text;
    assert.ok(t.includes('## pyproject.toml\n- name: app — The items API\n- version: 0.1.0\n- requires-python: >=3.10,<4.0\n- dependencies (4): fastapi[standard]'), t);
    assert.ok(t.includes('- tool settings: typos, mypy, ruff, coverage'), t);
    assert.doesNotMatch(t, /its head/);
    put(ws, 'pyproject.toml', '[project]\nname = "app"\ndependencies = [\n  "fastapi",\n');
    const broken = (await readWorkspaceFacts(ws))!.text;
    assert.ok(broken.includes('## pyproject.toml (its head; not valid TOML)\n```\n[project]\nname = "app"\ndependencies = [\n  "fastapi",\n```'), broken);
  });

  it('in the facts: a root Cargo.toml and go.mod as fact lines; a package.json that does not parse quoted by its head, the lockfile still named', async () => {
    const ws = tempDir('cape-facts-rust-go-');
    put(ws, 'package.json', '{"name": "anvil-site",\n');
    put(ws, 'package-lock.json', '{}\n');
    put(ws, 'Cargo.toml', '[package]\nname = "anvil"\nedition = "2021"\n\n[dependencies]\nserde = "1"\n');
    put(ws, 'go.mod', 'module example.com/anvil\n\ngo 1.22\n');
    put(ws, 'src/main.rs', 'fn main() {}\n');
    const t = (await readWorkspaceFacts(ws))!.text;
    assert.ok(t.includes('## go.mod\n- module: example.com/anvil\n- go: 1.22'), t);
    assert.ok(t.includes('## Cargo.toml\n- name: anvil\n- edition: 2021\n- dependencies (1): serde 1'), t);
    assert.ok(t.startsWith('## package.json (its head; not valid JSON)\n```\n{"name": "anvil-site",\n```'), t);
    assert.match(t, /\n## Lockfile\n- package-lock\.json \(npm\)/);
  });
});
