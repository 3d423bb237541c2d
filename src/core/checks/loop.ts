// The check loop after DevA's reply: the proposal is written over a scratch copy of the workspace, every check
// command runs there, and while one fails (and fix rounds are left) DevA gets the failing commands, exit codes and
// trimmed outputs and answers with fixed <file>/<edit> blocks, which replace the proposal's files; then every command
// runs again. A command's first failure is compared with the unchanged workspace (baseline.ts): a failure that was
// already there gets no fix round. The last proposal is kept whatever the result; with fail-first asked for, its
// test files then run alone on the unchanged workspace (failFirst.ts). A proposed file the copy could not take
// (scratchOverlay.ts) is told as it happens (a not-written event) and kept in the outcome: checks that pass without
// seeing it do not say every check passes (verdict.ts). What the project's formatter (format.ts) or a check that fixes
// as it runs (checkFixes.ts) changes in DevA's files is taken into the proposal. The runner calls this once, after
// DevA's reply is parsed; `askFix` continues DevA's own conversation.
import { extractFiles } from '../reply/blocks';
import { checkFilePath, samePathKey } from '../files/pathSafety';
import { proposeFiles } from '../files/proposals';
import { applyHunks } from '../edits/match';
import { editProposals, resolveEdits } from '../edits/propose';
import type { Hunk, ProposedFile } from '../model/types';
import { copyTooLarge, createScratch, disposeScratch } from './scratch';
import { runReported } from './run';
import { runFolders } from './runFolder';
import { DEFAULT_FIX_ROUNDS, type CheckEvent, type CheckRun, type ChecksConfig, type ChecksOutcome, type FixRound, type NotWritten, type TakenChange } from './types';
import { runFailFirst } from './failFirst';
import { Baseline, failsAsBefore } from './baseline';
import { detectFormatters, formatProposed, unformattedModified } from './format';
import { proposedInCopy, takeCheckFixes } from './checkFixes';
import { notCopied } from './copyLimit';
import { checksFinished, notWrittenLine } from './verdict';
import { fixRequest, type NamedTestRef } from './fixRequest';

export { fixRequest, type NamedTestRef } from './fixRequest';

export interface CheckLoopOptions extends ChecksConfig {
  workspace: string;
  capeFolder: string;
  /** DevA's proposal as parsed (refused files stay as they are). */
  files: ProposedFile[];
  /** Sends the fix request as the next user turn of DevA's conversation; resolves to DevA's reply text. */
  askFix: (request: string) => Promise<string>;
  onEvent?: (e: CheckEvent) => void;
  /** Stop: kills a running check; the loop then throws CheckCancelled. */
  signal?: AbortSignal;
  /** The tests DevA named for the criteria (with their files): the fix request says how each fared. */
  namedTests?: readonly NamedTestRef[];
  /** What the user should know that is no check's result: a scratch copy that could not be removed. */
  onWarning?: (message: string) => void;
}

export class CheckCancelled extends Error {
  constructor() {
    super('Session cancelled while the checks were running.');
  }
}

/**
 * DevA's fix reply applied to the proposal: <file> blocks replace, <edit> hunks apply to the proposed version — or,
 * when they match it nowhere, to DevA's own version of a file the formatter laid out or a check fixed since (`own`, by path).
 */
export async function applyFixReply(
  workspace: string,
  capeFolder: string,
  current: ProposedFile[],
  reply: string,
  own: ReadonlyMap<string, string> = new Map(),
): Promise<{ files: ProposedFile[]; changed: ProposedFile[]; problems: string[] }> {
  const scan = extractFiles(reply);
  if (!scan.ok) return { files: current, changed: [], problems: [`the reply's blocks could not be read: ${scan.error}`] };
  const files = current.slice();
  const problems: string[] = [];
  const changed = new Map<string, ProposedFile>();
  const indexOf = (rel: string) => files.findIndex((f) => f.relPath && samePathKey(f.relPath) === samePathKey(rel));
  const put = (p: ProposedFile) => {
    const i = indexOf(p.relPath!);
    if (i >= 0) files[i] = p;
    else files.push(p);
    changed.set(samePathKey(p.relPath!), p);
  };
  for (const p of await proposeFiles(workspace, scan.scan.files, { capeFolder })) {
    if (p.status === 'refused' || !p.relPath) problems.push(`${p.path}: ${p.reason ?? 'refused'}`);
    else put(p);
  }
  const byFile = new Map<string, { path: string; hunks: Hunk[] }>();
  for (const e of scan.scan.edits) {
    const k = samePathKey(e.path);
    const prev = byFile.get(k);
    if (prev) prev.hunks.push(...e.hunks);
    else byFile.set(k, { path: e.path, hunks: [...e.hunks] });
  }
  for (const block of byFile.values()) {
    // Against the proposed version when the proposal has the file, else against the workspace's file.
    const checked = checkFilePath(workspace, block.path, { capeFolder });
    const rel = checked.ok ? checked.relPath : undefined;
    const i = rel ? indexOf(rel) : -1;
    if (i >= 0 && files[i].status === 'proposed') {
      let m = applyHunks(files[i].content, block.hunks);
      const mine = own.get(rel!);
      if (!m.ok && mine !== undefined) {
        const onOwn = applyHunks(mine, block.hunks);
        if (onOwn.ok) m = onOwn;
      }
      if (m.ok) put({ ...files[i], content: m.content });
      else problems.push(`${rel}: ${m.failures.map((f) => `hunk ${f.index + 1} ("${f.firstLine}") ${f.reason}`).join('; ')}`);
      continue;
    }
    const [res] = await resolveEdits(workspace, [block], { capeFolder });
    if (res.ok) put(editProposals([res])[0]);
    else problems.push(`${res.relPath ?? res.path}: ${res.reason}`);
  }
  return { files, changed: [...changed.values()], problems };
}

/** Runs the checks and the fix rounds. Returns the last proposal and the outcome; throws CheckCancelled on Stop. */
export async function runCheckLoop(opts: CheckLoopOptions): Promise<{ files: ProposedFile[]; outcome: ChecksOutcome }> {
  const emit = (e: CheckEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      /* a listener's bug must not break the loop */
    }
  };
  const maxFixRounds = Math.max(0, Math.floor(opts.fixRounds ?? DEFAULT_FIX_ROUNDS));
  const outcome: ChecksOutcome = { commands: opts.commands.slice(), runs: [], fixRounds: [], maxFixRounds, passed: false };
  let files = opts.files;
  if (!opts.commands.length) return { files, outcome: { ...outcome, passed: true } };
  // a workspace too large to copy is not copied: its checks say why (copyLimit.ts)
  const tooLarge = await copyTooLarge(opts.workspace, opts.capeFolder, opts.copyLimit);
  if (tooLarge) return { files, outcome: notCopied(outcome, tooLarge, emit) };
  let scratch;
  try {
    scratch = await createScratch(opts.workspace, { capeFolder: opts.capeFolder, signal: opts.signal, folders: runFolders(opts.commands) });
  } catch (e) {
    if (opts.signal?.aborted) throw new CheckCancelled();
    throw e;
  }
  const baseline = new Baseline({ ...opts, emit });
  try {
    // the project's formatters (the root's, a sub-project's), and which of the files DevA changes they would change already (format.ts)
    const formatters = opts.format === false ? [] : await detectFormatters(opts.workspace, opts.capeFolder);
    const formattings = formatters.map((formatter) => ({ formatter, scratch, signal: opts.signal }));
    const leftAlone = new Set<string>();
    /** Adds to leftAlone the files of `changed` each formatter would change as they are on the unchanged code. */
    const leaveAlone = async (changed: ProposedFile[]) => {
      for (const formatting of formattings) for (const p of await unformattedModified(changed, formatting)) leftAlone.add(p);
      if (opts.signal?.aborted) throw new CheckCancelled();
    };
    await leaveAlone(files);
    let toWrite = files;
    let problems: string[] = [];
    /** DevA's own version of each file the formatter laid out or a check fixed (its fix may quote it). */
    const own = new Map<string, string>();
    /** What the formatter or a check that fixes as it runs changed, taken into the proposal (TakenChange). */
    const take = (next: ProposedFile[], taken: TakenChange) => {
      for (const f of files) if (f.relPath && taken.files.includes(f.relPath) && !own.has(f.relPath)) own.set(f.relPath, f.content);
      files = next;
      (outcome.formatted ??= []).push(taken);
      emit({ type: 'formatted', ...taken });
    };
    /** The proposal's files not in the copy, by path: a later round that writes one takes it off. */
    const unwritten = new Map<string, NotWritten>();
    for (let round = 0; ; round++) {
      const refused = await scratch.overlay(toWrite);
      for (const f of toWrite) if (f.relPath) unwritten.delete(samePathKey(f.relPath));
      for (const n of refused) unwritten.set(samePathKey(n.path), n);
      if (unwritten.size) outcome.notWritten = [...unwritten.values()];
      else delete outcome.notWritten;
      if (refused.length) emit({ type: 'not-written', round, files: refused });
      problems = [...problems, ...refused.map(notWrittenLine)];
      for (const formatting of formattings) {
        const targets = toWrite.filter((f) => f.relPath && !leftAlone.has(f.relPath)).map((f) => f.relPath!);
        const done = await formatProposed(files, targets, formatting);
        if (opts.signal?.aborted) throw new CheckCancelled();
        if (done.formatted.length) take(done.files, { round, by: formatting.formatter.name, files: done.formatted });
      }
      const runs: CheckRun[] = [];
      // the proposal's paths, whose lines each run's trimmed output keeps first (a check's fixes change no path)
      const focusFiles = files.flatMap((f) => (f.relPath ? [f.relPath] : []));
      for (let i = 0; i < opts.commands.length; i++) {
        // a command that failed once is judged by its run on the unchanged workspace too (testSummary.ts passedWithoutSummary)
        const base = baseline.get(opts.commands[i]);
        const inCopy = await proposedInCopy(scratch.dir, files);
        const { run, stopped } = await runReported({ ...opts, command: opts.commands[i], scratch, round, index: i, total: opts.commands.length, emit, base, focusFiles });
        runs.push(run);
        outcome.runs.push(run);
        if (stopped) throw new CheckCancelled();
        // a check that fixes as it runs (`eslint --fix .`) judged its fixed text: that is the proposal now (checkFixes.ts)
        const fixes = await takeCheckFixes(scratch, files, inCopy, run.exitCode !== null);
        if (fixes.fixed.length) take(fixes.files, { round, by: opts.commands[i], files: fixes.fixed, check: true });
      }
      const failing = runs.filter((r) => !r.passed);
      if (!failing.length) {
        outcome.passed = true;
        break;
      }
      // a failure is compared with the unchanged workspace once per command (baseline.ts)
      if (!(await baseline.runFor(failing, opts.commands))) throw new CheckCancelled();
      if (failing.every((r) => failsAsBefore(r, baseline.get(r.command)))) {
        outcome.failsAsBefore = true;
        break;
      }
      if (round >= maxFixRounds) break;
      // DevA's last answer changed nothing: it holds the failure is not its own (the rerun above tells a flaky one)
      const last = outcome.fixRounds.at(-1);
      if (last && !last.files.length && !last.problems.length) {
        outcome.fixDeclined = true;
        break;
      }
      const fixNo = round + 1;
      emit({ type: 'fix-round', round: fixNo, max: maxFixRounds, failing: failing.map((r) => r.command) });
      const taken = outcome.formatted?.filter((x) => x.round === round) ?? [];
      const request = fixRequest(failing, fixNo, maxFixRounds, problems, opts.namedTests ?? [], (r) => baseline.get(r.command), taken, files);
      const reply = await opts.askFix(request);
      const applied = await applyFixReply(opts.workspace, opts.capeFolder, files, reply, own);
      // a file the fix changes first is still unchanged in the copy: the formatter's view of it decides as in round 0
      const before = new Set(files.filter((f) => f.status === 'proposed' && f.relPath).map((f) => f.relPath!));
      await leaveAlone(applied.changed.filter((f) => !before.has(f.relPath!)));
      for (const f of applied.changed) if (f.relPath) own.delete(f.relPath);
      files = applied.files;
      toWrite = applied.changed;
      problems = applied.problems;
      const fix: FixRound = {
        round: fixNo,
        request,
        reply,
        files: applied.changed.map((f) => ({ path: f.relPath ?? f.path, content: f.content })),
        problems: applied.problems,
      };
      outcome.fixRounds.push(fix);
      emit({ type: 'fix-applied', round: fixNo, files: fix.files.map((f) => f.path), problems: fix.problems });
    }
  } finally {
    await disposeScratch(scratch, opts.onWarning);
    await baseline.dispose();
    if (baseline.all().length) outcome.baseline = baseline.all();
  }
  if (opts.failFirst) {
    let before;
    try {
      before = await runFailFirst({ ...opts, files, emit, loopRuns: { proposal: outcome.runs, unchanged: outcome.baseline } });
    } catch (e) {
      if (opts.signal?.aborted) throw new CheckCancelled();
      throw e;
    }
    const { cancelled, ...runs } = before;
    if (cancelled) throw new CheckCancelled();
    outcome.before = runs;
  }
  emit(checksFinished(outcome));
  return { files, outcome };
}
