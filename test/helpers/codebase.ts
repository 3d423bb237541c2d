// A small existing codebase for init's workspace facts (src/core/cape/initFacts.ts): a pnpm monorepo with scripts,
// two packages, a README and a CLAUDE.md — and what the facts must never show: a .env and an id_rsa (secrets, by
// name), node_modules/ (dependencies), a .gitignore'd folder and .git/. And how the facts' tests write a file, find a
// part of the facts and see which files a part read.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { WorkspacePolicy } from '../../src/core/workspace/policy';

/** Strings of the files the facts must not show (their content, or their names as listed). */
export const HIDDEN = {
  envValue: 'SECRET-ENV-VALUE-7731',
  keyValue: 'PRIVATE-KEY-BODY-5512',
  dependency: 'left-pad-internals',
  ignored: 'generated-out',
};

/** Writes `text` at the workspace-relative `rel`, making its folders. */
export function putFile(ws: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
}

/** The lines of the facts' part under `heading` (up to the next part); there must be one. */
export function factsPart(text: string, heading: string): string {
  const at = text.indexOf(`## ${heading}`);
  assert.ok(at >= 0, `a part "${heading}" in:\n${text}`);
  const next = text.indexOf('\n\n## ', at);
  return text.slice(at, next < 0 ? undefined : next);
}

/** Has `owner`'s readSync (a policy's, or every policy's: the prototype's) record in `read` each path it reads (those it admits); returns the undo. */
function recordReads(owner: Pick<WorkspacePolicy, 'readSync'>, read: string[]): () => void {
  const readSync = owner.readSync;
  owner.readSync = function (this: WorkspacePolicy, p: string, named?: boolean) {
    const got = readSync.call(this, p, named);
    if (got.ok) read.push(p);
    return got;
  };
  return () => void (owner.readSync = readSync);
}

/** A read policy of `ws` that records, in `read`, each path it reads (those it admits), in order. */
export function recordingPolicy(ws: string): { policy: WorkspacePolicy; read: string[] } {
  const policy = new WorkspacePolicy(ws);
  const read: string[] = [];
  recordReads(policy, read);
  return { policy, read };
}

/** Records in `read` each path any read policy reads while `run` runs (one made inside the code under test too). */
export async function recordingAllReads<T>(run: () => Promise<T>): Promise<{ result: T; read: string[] }> {
  const read: string[] = [];
  const undo = recordReads(WorkspacePolicy.prototype, read);
  try {
    return { result: await run(), read };
  } finally {
    undo();
  }
}

export function writeCodebase(ws: string): void {
  const put = (rel: string, text: string) => putFile(ws, rel, text);
  put(
    'package.json',
    JSON.stringify({
      name: 'acme-shop',
      description: 'The Acme shop: an API and a web app',
      private: true,
      packageManager: 'pnpm@9.1.0',
      workspaces: ['packages/*'],
      engines: { node: '>=20' },
      scripts: { build: 'tsc -b', test: 'vitest run', lint: 'eslint .', typecheck: 'tsc -b --noEmit' },
      dependencies: { zod: '^3.23.0' },
      devDependencies: { typescript: '^5.4.5', vitest: '^1.6.0', eslint: '^9.2.0' },
    }),
  );
  put('pnpm-lock.yaml', "lockfileVersion: '9.0'\n");
  put('packages/api/package.json', '{"name":"@acme/api"}\n');
  put('packages/api/src/server.ts', 'export const port = 8080;\n');
  put('packages/api/src/orders.ts', 'export function orders() { return []; }\n');
  put('packages/api/test/orders.test.ts', "import { orders } from '../src/orders';\n");
  put('packages/web/package.json', '{"name":"@acme/web"}\n');
  put('packages/web/src/App.tsx', 'export const App = () => null;\n');
  put('docs/architecture.md', '# Architecture\n');
  put('README.md', '[![CI](https://ci.example/badge.svg)](https://ci.example)\n\n# Acme shop\n\nThe Acme shop sells anvils online: an order API and a React storefront.\n\n## Install\n\n`pnpm install`\n');
  put('CLAUDE.md', '# Working on Acme\n\nUse pnpm, never npm. Run `pnpm test` before every commit. Keep API handlers in packages/api/src.\n');
  put('.env', `STRIPE_KEY=${HIDDEN.envValue}\n`);
  put('id_rsa', `-----BEGIN OPENSSH PRIVATE KEY-----\n${HIDDEN.keyValue}\n`);
  put(`node_modules/${HIDDEN.dependency}/index.js`, 'module.exports = 1;\n');
  put('.gitignore', `${HIDDEN.ignored}/\n`);
  put(`${HIDDEN.ignored}/bundle.js`, 'var x = 1;\n');
  put('.git/HEAD', 'ref: refs/heads/main\n');
}
