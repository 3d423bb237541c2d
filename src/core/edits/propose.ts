// DevA's <edit> blocks → proposals. Each block's path obeys the write rules (files/pathSafety.ts) and must name an
// existing text file that is not a secret (workspace/policy.ts: never read); its hunks are matched against the current
// content (match.ts). Blocks that fail get ONE repair request naming each failing hunk (its SEARCH text's first line)
// and why; whatever still fails is refused with the reason, and the other files go on.
import { promises as fsp, type Stats } from 'fs';
import * as path from 'path';
import { checkFilePath, MAX_FILE_BYTES, samePathKey, targetRefusal } from '../files/pathSafety';
import { notTextReason } from '../files/text';
import { secretPattern } from '../workspace/secretNames';
import { formatBytes } from '../text/size';
import { applyHunks, type HunkFailure } from './match';
import { WARNING_UNREAD_REWRITE, type Hunk, type ProposedFile } from '../model/types';

export interface EditBlockLike {
  path: string;
  hunks: Hunk[];
}

/** The outcome of one file's <edit> blocks. */
export type EditResolution =
  | { ok: true; path: string; relPath: string; absPath: string; content: string; currentContent: string; hunks: number }
  | {
      ok: false;
      path: string;
      relPath?: string;
      absPath?: string;
      reason: string;
      /** Hunks that matched nowhere or in several places (a repair may fix them). */
      failures?: HunkFailure[];
      /** Whether a repair request may help (hunk failures, a file that is missing) or not (unsafe path). */
      repairable: boolean;
    };

function describe(failures: HunkFailure[]): string {
  return failures.map((f) => `hunk ${f.index + 1} ("${f.firstLine}") ${f.reason}`).join('; ');
}

/** Matches every block (blocks for the same file are applied in order, as one list of hunks). Reads, never writes. */
export async function resolveEdits(workspace: string, blocks: EditBlockLike[], opts: { capeFolder?: string } = {}): Promise<EditResolution[]> {
  const byFile = new Map<string, { path: string; hunks: Hunk[] }>();
  const out: EditResolution[] = [];
  for (const b of blocks) {
    const check = checkFilePath(workspace, b.path, opts);
    if (!check.ok) {
      out.push({ ok: false, path: b.path, reason: check.reason, repairable: false });
      continue;
    }
    // a secret is never read (workspace/policy.ts): matching would copy it into the proposal (and DevA's step record),
    // and a failing hunk's reason would tell the model whether its guessed line is in the file
    const secret = secretPattern(check.relPath) ?? secretPattern(check.realRelPath);
    if (secret) {
      const reason = `${check.relPath} is a secret file (name matches "${secret}"): it is never read, so an <edit> cannot change it; change it by hand`;
      out.push({ ok: false, path: b.path, relPath: check.relPath, absPath: check.absPath, reason, repairable: false });
      continue;
    }
    // by where the path really leads: blocks for `src/a.ts` and `link-to-src/a.ts` change one file, hunk after hunk
    const key = samePathKey(check.realRelPath);
    const prev = byFile.get(key);
    if (prev) prev.hunks.push(...b.hunks);
    else byFile.set(key, { path: b.path, hunks: [...b.hunks] });
  }
  for (const { path: p, hunks } of byFile.values()) {
    const check = checkFilePath(workspace, p, opts);
    if (!check.ok) continue; // checked above
    const located = { path: p, relPath: check.relPath, absPath: check.absPath };
    let st: Stats;
    try {
      st = await fsp.lstat(check.absPath);
    } catch {
      // a slip of case or normalization would otherwise have the model create a second file beside the one it meant
      const near = await spelledOnDisk(workspace, check.relPath, opts);
      const reason = near
        ? `${check.relPath} does not exist, but ${near} does (the same name but for case or Unicode normalization): send the <edit> for that path`
        : `${check.relPath} does not exist: an <edit> changes an existing file; create a new one with <file>`;
      out.push({ ok: false, ...located, reason, repairable: true });
      continue;
    }
    const notAFile = targetRefusal(check.relPath, st);
    if (notAFile) {
      out.push({ ok: false, ...located, reason: notAFile, repairable: false });
      continue;
    }
    if (st.size > MAX_FILE_BYTES) {
      const reason = `${check.relPath} is ${formatBytes(st.size)}, over the ${formatBytes(MAX_FILE_BYTES)} an edit may change; change it by hand`;
      out.push({ ok: false, ...located, reason, repairable: false });
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await fsp.readFile(check.absPath);
    } catch (err) {
      out.push({ ok: false, ...located, reason: `${check.relPath} cannot be read: ${(err as Error).message}`, repairable: false });
      continue;
    }
    // a decoding that is not the file's bytes (U+FFFD for each invalid byte) would be written back over all of it
    const notText = notTextReason(bytes);
    if (notText) {
      out.push({ ok: false, ...located, reason: `${check.relPath} cannot be edited: ${notText}`, repairable: false });
      continue;
    }
    const current = bytes.toString('utf8');
    const m = applyHunks(current, hunks);
    if (m.ok) out.push({ ok: true, ...located, content: m.content, currentContent: current, hunks: hunks.length });
    else out.push({ ok: false, ...located, reason: describe(m.failures), failures: m.failures, repairable: true });
  }
  return out;
}

/**
 * The existing path that `relPath` names but for case or Unicode normalization (samePathKey: what a case-insensitive
 * or normalizing file system would open), when it passes the path rules; null when there is none.
 */
async function spelledOnDisk(workspace: string, relPath: string, opts: { capeFolder?: string }): Promise<string | null> {
  let dir = path.resolve(workspace);
  const found: string[] = [];
  for (const seg of relPath.split('/')) {
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      return null;
    }
    const name = names.includes(seg) ? seg : names.find((n) => samePathKey(n) === samePathKey(seg));
    if (name === undefined) return null;
    found.push(name);
    dir = path.join(dir, name);
  }
  const near = found.join('/');
  return near !== relPath && checkFilePath(workspace, near, opts).ok && !secretPattern(near) ? near : null;
}

/** The user message of the single repair request for the failing edits. */
export function editRepairPrompt(failing: EditResolution[]): string {
  const lines = ['Some of your <edit> blocks could not be applied to the current files:', ''];
  for (const f of failing) {
    if (f.ok) continue;
    lines.push(`- ${f.relPath ?? f.path}:`);
    if (f.failures) for (const h of f.failures) lines.push(`  - hunk ${h.index + 1} (SEARCH starting "${h.firstLine}"): ${h.reason}`);
    else lines.push(`  - ${f.reason}`);
  }
  lines.push(
    '',
    'Send corrected blocks for these files only, and nothing else (no JSON): one <edit path="…"> block per file with ALL',
    'of its hunks again, each SEARCH copied exactly from the current file (read it with read_file if you need to) and',
    'matching exactly one place; or a <file path="…"> block with the whole new content.',
  );
  return lines.join('\n');
}

/** The <file> blocks of a repair reply that rewrite one of the failing files whole (by their checked path). */
export function rewritesOf(workspace: string, files: { path: string; content: string }[], failing: EditResolution[], opts: { capeFolder?: string } = {}) {
  const wanted = new Set(failing.map((f) => samePathKey(f.relPath ?? f.path)));
  const out: { path: string; content: string; key: string }[] = [];
  for (const f of files) {
    const c = checkFilePath(workspace, f.path, opts);
    if (c.ok && wanted.has(samePathKey(c.relPath))) out.push({ ...f, key: samePathKey(c.relPath) });
  }
  return out;
}

/**
 * After the repair reply: files it sent again replace their failed resolution (an edit re-matched, a whole <file>
 * taken as is by the caller); files it did not fix stay refused with their reason. `unreadable`: why the repair
 * reply's blocks could not be read (a block cut off), which is then why no file was corrected.
 */
export function mergeRepaired(first: EditResolution[], repaired: EditResolution[], rewritten: Set<string>, unreadable?: string): EditResolution[] {
  const key = (r: EditResolution) => samePathKey(r.relPath ?? r.path);
  const fixes = new Map(repaired.map((r) => [key(r), r]));
  const out: EditResolution[] = [];
  for (const r of first) {
    if (r.ok || !r.repairable) {
      out.push(r);
      continue;
    }
    if (rewritten.has(key(r))) continue; // replaced by a whole <file> of the repair reply
    const fix = fixes.get(key(r));
    if (fix?.ok) out.push(fix);
    else if (fix) out.push({ ...fix, reason: `still failing after a repair request: ${fix.reason}` });
    else if (unreadable) out.push({ ...r, reason: `the repair reply could not be read (${unreadable}): ${r.reason}` });
    else out.push({ ...r, reason: `not corrected in the repair reply: ${r.reason}` });
  }
  return out;
}

/** Resolutions → proposals for the review (refused ones keep the reason). */
export function editProposals(res: EditResolution[]): ProposedFile[] {
  return res.map((r) =>
    r.ok
      ? { path: r.path, relPath: r.relPath, absPath: r.absPath, action: 'modify', status: 'proposed', content: r.content, currentContent: r.currentContent, edit: true }
      : { path: r.path, relPath: r.relPath, absPath: r.absPath, action: 'modify', status: 'refused', reason: r.reason, content: '', edit: true },
  );
}

/**
 * DevA's proposals in reply order: the <file> blocks (files/pathSafety.ts proposeFiles: create, modify or refused),
 * then the edits. A <file> that rewrites an existing file DevA neither read (`seen`) nor received whole carries
 * WARNING_UNREAD_REWRITE; a file both rewritten by <file> and edited is refused as an edit (the whole <file> wins).
 */
export function combineProposals(files: ProposedFile[], edits: EditResolution[], seen: ReadonlySet<string>): ProposedFile[] {
  const written = new Set(files.filter((f) => f.relPath && f.status !== 'refused').map((f) => samePathKey(f.relPath!)));
  const out: ProposedFile[] = files.map((f) =>
    f.action === 'modify' && f.status === 'proposed' && f.relPath && !seen.has(f.relPath) ? { ...f, warning: WARNING_UNREAD_REWRITE } : f,
  );
  for (const p of editProposals(edits)) {
    if (p.relPath && written.has(samePathKey(p.relPath))) {
      out.push({ ...p, status: 'refused', content: '', reason: `duplicate: a <file> block of the same reply rewrites ${p.relPath} whole` });
    } else out.push(p);
  }
  return out;
}
