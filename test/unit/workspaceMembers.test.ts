// src/core/workspace/members.ts: the workspace members a repository's root declares — package.json `workspaces`,
// pnpm-workspace.yaml `packages`, the uv, PDM and Hatch workspaces of pyproject.toml, Cargo's `[workspace]`, go.work's
// `use` — read through the caller's reader, TOML parsed; and whether a folder is one (`*` and `**` globs, a `!` glob
// or an `exclude` leaving folders out), the one rule init's facts and the checks' sub-projects share.
import * as assert from 'assert';
import { declaredMembers, goWorkUses, isMember, mayHoldMembers, MEMBER_FILES, pnpmPackages } from '../../src/core/workspace/members';

/** A reader over a root's files (those it lacks read as missing), and the files it was asked for. */
function rootOf(files: Record<string, string>): { read: (rel: string) => string | null; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    read: (rel) => {
      asked.push(rel);
      return files[rel] ?? null;
    },
  };
}

const members = (files: Record<string, string>) => declaredMembers(rootOf(files).read);

describe('workspace members: what the root declares (members.ts)', () => {
  it("package.json's `workspaces`, as a list or as `{ packages }`; one that is not JSON declares none", () => {
    assert.deepStrictEqual(members({ 'package.json': JSON.stringify({ workspaces: ['frontend', 'packages/*', 3] }) }), ['frontend', 'packages/*']);
    assert.deepStrictEqual(members({ 'package.json': JSON.stringify({ workspaces: { packages: ['apps/*'], nohoist: ['**/x'] } }) }), ['apps/*']);
    assert.deepStrictEqual(members({ 'package.json': '{ "workspaces": [' }), []);
  });

  it("pnpm-workspace.yaml's packages: a flow list, or a block list with comments, at the key's indentation or below", () => {
    assert.deepStrictEqual(pnpmPackages("packages: ['a/*', \"b\"]\n"), ['a/*', 'b']);
    assert.deepStrictEqual(pnpmPackages('packages:\n- one\n\n  - two\nonlyBuiltDependencies:\n  - x\n'), ['one', 'two']);
    assert.deepStrictEqual(members({ 'pnpm-workspace.yaml': "# the apps\npackages:\n  - 'apps/*'   # every app\n  - \"!apps/legacy\"\ncatalog:\n  react: ^19\n" }), ['apps/*', '!apps/legacy']);
  });

  it('the workspaces of uv, PDM and Hatch, those excluded marked `!`; a TOML list over several lines with comments read whole', () => {
    const pyproject = `[tool.uv.workspace]
members = [
  "backend",  # the API [v2]
  'packages/*',
]
exclude = ["packages/legacy"]

[tool.pdm.workspace]
members = ["tools/pdm-one"]

[tool.hatch.envs.default]
workspace.members = [{ path = "libs/core", features = ["dev"] }, "libs/cli"]
`;
    assert.deepStrictEqual(members({ 'pyproject.toml': pyproject }), ['backend', 'packages/*', '!packages/legacy', 'tools/pdm-one', 'libs/core', 'libs/cli']);
    assert.deepStrictEqual(members({ 'pyproject.toml': '[tool.uv.workspace\nmembers = ["x"]\n' }), [], 'not valid TOML');
  });

  it("Cargo's `[workspace]` members and excludes, and go.work's `use` lines and block", () => {
    assert.deepStrictEqual(members({ 'Cargo.toml': '[package]\nname = "a"\n\n[workspace]\nmembers = ["crates/*"]\nexclude = ["crates/old"]\n' }), ['crates/*', '!crates/old']);
    assert.deepStrictEqual(goWorkUses('go 1.22\n\nuse ./api\nuse (\n\t./web // the site\n\t"./tools"\n)\n'), ['./api', './web', './tools']);
    assert.deepStrictEqual(goWorkUses('go 1.22\r\nuse(\r\n  ./a\r\n)\r\nuse `./b` // b\r\n'), ['./a', './b']);
  });

  it('all the root files together, each read through the reader given, none but those', () => {
    const root = rootOf({ 'package.json': '{"workspaces":["web"]}', 'go.work': 'use ./svc\n' });
    assert.deepStrictEqual(declaredMembers(root.read), ['web', './svc']);
    assert.deepStrictEqual(root.asked, [...MEMBER_FILES]);
  });
});

describe('workspace members: whether a folder is one (members.ts)', () => {
  it('a path, a `*` in a segment, a `**` for any number of segments; `./` and a trailing `/` as written', () => {
    const globs = ['./svc', 'packages/*', 'apps/web-*/', 'libs/**'];
    for (const dir of ['svc', 'packages/ui', 'apps/web-admin', 'libs/a', 'libs/a/b']) assert.ok(isMember(dir, globs), dir);
    for (const dir of ['packages', 'packages/ui/inner', 'apps/api', 'other', 'svc/x']) assert.ok(!isMember(dir, globs), dir);
    assert.ok(isMember('a/b', ['**/b']) && isMember('b', ['**/b']) && !isMember('a/c', ['**/b']));
  });

  it('a `!` glob or an `exclude` leaves a folder out; a glob out of the workspace names none', () => {
    assert.ok(!isMember('apps/legacy', ['apps/*', '!apps/legacy']));
    assert.ok(isMember('apps/web', ['apps/*', '!apps/legacy']));
    assert.ok(!isMember('packages/old-a', ['packages/*', '!packages/old-*']));
    for (const glob of ['../x', '/x', 'C:/x', '!x']) assert.ok(!isMember('x', [glob]), glob);
  });

  it('which folders one level down may hold members below them: the checks list only those', () => {
    const globs = ['packages/*', 'svc', '!apps/legacy'];
    assert.ok(mayHoldMembers('packages', globs));
    assert.ok(!mayHoldMembers('svc', globs), 'a member itself, nothing below it');
    assert.ok(!mayHoldMembers('apps', globs), 'a glob that leaves out names none');
    assert.ok(mayHoldMembers('anything', ['**/pkg']) && mayHoldMembers('apps-x', ['apps-*/*']));
  });
});
