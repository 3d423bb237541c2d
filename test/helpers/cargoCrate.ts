// Temporary Rust crates for the tests that run the real cargo (`--offline`: no dependency): a package with its lib's
// source and its files, alone or as a member of a cargo workspace, and DevA's proposed files for one.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ProposedFile } from '../../src/core';

/** A new temporary folder for a workspace of crates. */
export function cargoTmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-cargo-'));
}

/** A package `name` in `ws`'s folder `folder` ('' for the workspace's own), its src/lib.rs `lib`, with `files` (paths relative to the crate). */
export function cargoCrate(ws: string, folder: string, name: string, lib: string, files: Record<string, string> = {}): void {
  const dir = path.join(ws, folder);
  for (const [rel, text] of Object.entries({ 'Cargo.toml': `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`, 'src/lib.rs': lib, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/** A virtual cargo workspace's root manifest in `ws`, with its members. */
export function cargoWorkspace(ws: string, members: string[]): void {
  fs.writeFileSync(path.join(ws, 'Cargo.toml'), `[workspace]\nmembers = [${members.map((m) => `"${m}"`).join(', ')}]\nresolver = "2"\n`);
}

/** DevA's proposal of a new file, workspace-relative. */
export function proposedFile(relPath: string, content: string): ProposedFile {
  return { path: relPath, relPath, content, status: 'proposed', action: 'create' } as ProposedFile;
}
