// The obvious checks (detect.ts) of the projects whose toolchain runs them whole, each found in the project's folder
// and run when its program is there (the project's wrapper, or PATH):
//  - Go (go.mod): `go vet ./...` and `go test ./...`;
//  - Rust (Cargo.toml): `cargo clippy --tests` (when clippy is installed) and `cargo test`;
//  - Ruby: RSpec (`.rspec`, `spec/spec_helper.rb`) or minitest through rake, and RuboCop (`.rubocop.yml`), by Bundler
//    when there is a Gemfile;
//  - Maven (pom.xml) and Gradle (build.gradle[.kts]): their test task, through the project's wrapper (mvnw, gradlew)
//    when it has one — in its folder, or one above it up to the workspace's root (a multi-project build's);
//  - .NET (a .sln or project file): `dotnet test`.
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { CheckCommand, FoundChecks } from './types';
import { exists, firstIn, levelsUpTo, onPath } from './projectProbes';

/** Go's checks, for a go.mod in `dir` when go is on PATH. */
export async function goChecks(dir: string): Promise<FoundChecks> {
  if (!(await exists(path.join(dir, 'go.mod'))) || !(await onPath(['go']))) return [[], []];
  return [[{ command: 'go vet ./...', source: 'detected', reason: 'go.mod' }], [{ command: 'go test ./...', source: 'detected', reason: 'go.mod' }]];
}

/** Rust's checks, for a Cargo.toml in `dir` when cargo is on PATH. */
export async function rustChecks(dir: string): Promise<FoundChecks> {
  if (!(await exists(path.join(dir, 'Cargo.toml'))) || !(await onPath(['cargo']))) return [[], []];
  // clippy where it is installed (rustup's `cargo-clippy`), as `go vet` for Go: plain, it fails on errors and on
  // its deny-by-default lints (code that is outright wrong), never on the warnings a project may already have; over
  // what `cargo test` builds (`--tests`), not benches, which often need a nightly compiler (semver's do)
  const clippy: CheckCommand[] = (await onPath(['cargo-clippy'])) ? [{ command: 'cargo clippy --tests', source: 'detected', reason: 'Cargo.toml, cargo-clippy installed' }] : [];
  return [clippy, [{ command: 'cargo test', source: 'detected', reason: 'Cargo.toml' }]];
}

/**
 * A Ruby project: RSpec where it is set up (`.rspec`, `spec/spec_helper.rb`), else minitest through rake (a Rakefile
 * and `test/test_helper.rb`), RuboCop where it is configured (`.rubocop.yml`) — through Bundler when the project has
 * a Gemfile (`bundle exec`, bundle on PATH), else the programs on PATH: [static checks, tests].
 */
export async function rubyChecks(dir: string): Promise<FoundChecks> {
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  const at = (rel: string) => exists(path.join(dir, rel));
  const gemfile = await at('Gemfile');
  if (gemfile && !(await onPath(['bundle']))) return [statics, tests];
  const program = async (name: string) => (gemfile ? `bundle exec ${name}` : await onPath([name]));
  const rspecWhy = await firstIn(dir, ['.rspec', 'spec/spec_helper.rb']);
  const minitestWhy = !rspecWhy && (await at('Rakefile')) && (await at('test/test_helper.rb')) ? 'Rakefile and test/test_helper.rb' : null;
  if (await at('.rubocop.yml')) {
    const rubocop = await program('rubocop');
    if (rubocop) statics.push({ command: rubocop, source: 'detected', reason: '.rubocop.yml' });
  }
  if (rspecWhy) {
    const rspec = await program('rspec');
    if (rspec) tests.push({ command: rspec, source: 'detected', reason: rspecWhy });
  } else if (minitestWhy) {
    const rake = await program('rake');
    if (rake) tests.push({ command: `${rake} test`, source: 'detected', reason: minitestWhy });
  }
  return [statics, tests];
}

/**
 * The project's build wrapper (`unix`, or `windows` on Windows) as a command run in `dir`: its own (`./gradlew`), else
 * one in a folder above it up to `root` (`../gradlew`); null when there is none.
 */
async function wrapper(dir: string, root: string, unix: string, windows: string): Promise<string | null> {
  const win = process.platform === 'win32';
  const name = win ? windows : unix;
  for (const above of levelsUpTo(dir, root)) {
    if (!(await exists(path.join(dir, ...above, name)))) continue;
    if (!above.length) return win ? name : `./${name}`;
    return [...above, name].join(win ? '\\' : '/');
  }
  return null;
}

/** Maven (pom.xml) and Gradle (build.gradle, build.gradle.kts) in `dir`: their test task (see the header). */
export async function jvmChecks(dir: string, root: string): Promise<FoundChecks> {
  const tests: CheckCommand[] = [];
  if (await exists(path.join(dir, 'pom.xml'))) {
    const mvn = (await wrapper(dir, root, 'mvnw', 'mvnw.cmd')) ?? (await onPath(['mvn']));
    if (mvn) tests.push({ command: `${mvn} test`, source: 'detected', reason: 'pom.xml' });
  }
  const gradleWhy = await firstIn(dir, ['build.gradle', 'build.gradle.kts']);
  if (gradleWhy) {
    const gradle = (await wrapper(dir, root, 'gradlew', 'gradlew.bat')) ?? (await onPath(['gradle']));
    if (gradle) tests.push({ command: `${gradle} test`, source: 'detected', reason: gradleWhy });
  }
  return [[], tests];
}

/** .NET: a solution or project file in `dir`, when dotnet is on PATH. */
export async function dotnetChecks(dir: string): Promise<FoundChecks> {
  const entries = await fsp.readdir(dir).catch(() => [] as string[]);
  const why = entries.find((e) => /\.sln$/i.test(e)) ?? entries.find((e) => /\.(cs|fs|vb)proj$/i.test(e));
  return why && (await onPath(['dotnet'])) ? [[], [{ command: 'dotnet test', source: 'detected', reason: why }]] : [[], []];
}
