// The CLI's live transcript: session events (voices, steps, tool calls, checks, warnings, metrics) as readable lines.
// Everything it writes goes through withoutControls (core/text/controls.ts): voices, conversation turns, KPT items,
// questions and check output are a model's or a program's words, never commands to the terminal.

import {
  STEP_AGENT,
  formatDuration,
  formatUsd,
  stepTitle,
  type SessionEvent,
  describeToolCall,
  type CheckEvent,
  type CheckRun,
  questionLine,
  questionState,
  QUESTION_MARKS,
  withoutControls,
  withOneFinalNewline,
  notRunSaying,
  notCheckedSaying,
  notWrittenLine,
  runStatusWord,
  tsrSummary,
  AS_BEFORE_BY,
  beforeFailureSaying,
  caseCount,
  failFirstFailing,
  failFirstFailingSaying,
  takenBy,
  takenSaying,
} from '../core';

/** Where the transcript goes: text only. */
export interface Out {
  write(text: string): void;
}

/** `stream` writing text without escape sequences and control characters (line breaks and tabs stay). */
export function textOnly(stream: NodeJS.WritableStream): Out {
  return { write: (text) => void stream.write(withoutControls(text)) };
}

/** " (3 test cases failing)" for a run on the unchanged workspace, or '' when it reported none failing. */
function failingCases(r: CheckRun): string {
  const n = (r.tests ?? []).filter((t) => !t.passed).length;
  return n ? ` (${caseCount(n)} failing)` : '';
}

/** " (text)", or '' for no text. */
const inParens = (text: string) => (text ? ` (${text})` : '');

/** One check event as transcript lines. */
function printCheck(out: Out, e: CheckEvent): void {
  switch (e.type) {
    case 'check-started':
      out.write(
        `  ▷ check${e.before ? " on the unchanged workspace with only DevA's test files (fail-first)" : e.baseline ? ' on the unchanged workspace, to compare the failure' : e.round ? ` (after fix round ${e.round})` : ''}: ${e.command}${e.targets?.length ? ` (per test target: ${e.targets.join(', ')})` : ''}\n`,
      );
      break;
    case 'check-finished': {
      const r = e.run;
      if (e.baseline) {
        const how = r.status === 'failed' ? `failed too${failingCases(r)}` : runStatusWord(r.status);
        out.write(`  · on the unchanged workspace, ${r.command} ${how} · ${formatDuration(r.durationMs)}\n`);
        break;
      }
      if (e.before) {
        // a failure is what a new test should do here: no output, the test cases it reported; one that failed before
        // it ran DevA's tests (checks/notReached.ts: a time-out too) observed nothing, and says why
        // the cases the unchanged code fails without DevA's tests too are the suite's own, counted apart
        const failed = () => {
          const { own, already } = failFirstFailing(r);
          return `failed${inParens(failFirstFailingSaying(r))}${own || !already ? ', as a test of the change should' : ": none of DevA's tests failed here"}`;
        };
        const how = r.passed
          ? "passed: DevA's tests pass without the change too (as a regression guard should; a test of the change should not)"
          : (beforeFailureSaying(r) ?? (r.status === 'failed' ? failed() : runStatusWord(r.status)));
        out.write(`  · before the change, ${r.command} ${how} · ${formatDuration(r.durationMs)}\n`);
        break;
      }
      const how = r.status === 'failed' ? `failed (exit ${r.exitCode ?? 'signal'})` : runStatusWord(r.status);
      out.write(`  ${r.passed ? '✓' : '✗'} ${r.command} ${how} · ${formatDuration(r.durationMs)}\n`);
      if (!r.passed) {
        const lines = r.output.split('\n');
        for (const l of lines.slice(0, 12)) out.write(`      ${l}\n`);
        if (lines.length > 12) out.write(`      … ${lines.length - 12} more line(s) in the pair artifact\n`);
      }
      break;
    }
    case 'fix-round':
      out.write(`  ↻ fix round ${e.round} of ${e.max}: DevA gets the output of ${e.failing.join(', ')}\n`);
      break;
    case 'formatted':
      out.write(`  ≡ ${takenSaying(e)} (${takenBy(e)})\n`);
      break;
    case 'not-written':
      for (const n of e.files) out.write(`  ⚠ not checked: ${notWrittenLine(n)}\n`);
      break;
    case 'fix-applied':
      out.write(`  ~ DevA's fix changed ${e.files.length ? e.files.join(', ') : 'no file'}\n`);
      for (const p of e.problems) out.write(`  ⚠ ${p}\n`);
      break;
    case 'checks-finished':
      if (e.passed && e.notChecked?.length) out.write(`  ⚠ ${notCheckedSaying(e.notChecked)}\n`);
      else if (e.passed) out.write(`  ✓ every check passes${e.fixRounds ? ` after ${e.fixRounds} fix round${e.fixRounds === 1 ? '' : 's'}` : ''}\n`);
      else if (e.notRun) out.write(`  ✗ ${notRunSaying(e.notRun)} It is kept for review.\n`);
      else if (e.failsAsBefore) {
        const failing = e.summary.filter((c) => !c.passed).map((c) => c.command);
        out.write(`  ✗ ${failing.join(', ')} fail${failing.length === 1 ? 's' : ''} as on the unchanged workspace (${AS_BEFORE_BY}): not the proposal's doing, so DevA was not asked to fix it\n`);
      } else {
        const failing = e.summary.filter((c) => !c.passed).map((c) => `${c.command} (${c.status === 'failed' ? `exit ${c.exitCode ?? 'none'}` : runStatusWord(c.status)})`);
        const why = e.fixDeclined ? ' (DevA changed no file in its last one, so it was not asked again)' : '';
        out.write(`  ✗ checks still failing after ${e.fixRounds} fix round${e.fixRounds === 1 ? '' : 's'}${why}: ${failing.join(', ')}; DevA's last proposal is kept for review\n`);
      }
      break;
  }
}

function fmt(n: number | null): string {
  return n === null || n === undefined ? 'n/a' : String(Math.round(n * 100) / 100);
}

/** Prints session events as a readable live transcript. */
export function printer(stream: NodeJS.WritableStream) {
  const out = textOnly(stream);
  let midLine = false;
  const nl = () => {
    if (midLine) out.write('\n');
    midLine = false;
  };
  return (e: SessionEvent) => {
    switch (e.type) {
      case 'session-started':
        out.write(`${e.resumed ? 'Resuming' : 'Starting'} ${e.taskId}: ${e.objective}\n`);
        break;
      case 'step-started':
        nl();
        out.write(`\n▶ ${stepTitle(e.step)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}\n`);
        break;
      case 'voice-delta':
        out.write(e.text);
        midLine = !e.text.endsWith('\n');
        break;
      case 'tool-call':
        nl();
        out.write(`  ${e.call.refused || e.call.limited ? '⚠' : '·'} ${describeToolCall(STEP_AGENT[e.step], e.call).text}\n`);
        break;
      case 'retry':
        nl();
        out.write(`  ↻ ${e.reason} — retrying in ${Math.round(e.delayMs / 100) / 10}s\n`);
        break;
      case 'continued':
        nl();
        out.write(`  ⤷ the reply reached the output limit; asking the model to continue it (${e.continuation} of at most ${e.max})\n`);
        break;
      case 'repair':
        nl();
        out.write(`  ⚠ reply did not validate (${e.error}); asking once for a corrected reply\n`);
        break;
      case 'warning':
        nl();
        out.write(`  ⚠ ${e.message}\n`);
        break;
      case 'envelope': {
        nl();
        const env = e.envelope;
        // the voice streamed above was another envelope's (the warning before this says which was used); the
        // retrospective's conversation is printed below from the envelope used in any case
        if (e.voiceNotStreamed && e.step !== 'cm_retro' && env.voice.trim()) out.write(`  The voice of the envelope used:\n${withOneFinalNewline(env.voice)}`);
        if (e.step === 'cm_open') {
          const o = env.output as { dor_check?: { passed: boolean; concerns: string[] }; watch_out?: string[] };
          out.write(`  DoR: ${o.dor_check?.passed ? 'passed' : 'concerns'}\n`);
          for (const c of o.dor_check?.concerns ?? []) out.write(`    · ${c}\n`);
          for (const w of o.watch_out ?? []) out.write(`  ⚑ ${w}\n`);
        } else if (e.step === 'cm_retro') {
          for (const t of env.conversation ?? []) out.write(`  ${t.speaker}: ${t.text}\n`);
        } else if (env.ass) {
          out.write(`  ASS ${env.ass.score ?? '–'}/5 · confidence ${env.confidence ?? '–'} · references ${env.references.length}\n`);
        }
        break;
      }
      case 'blocker':
        nl();
        out.write(`  ? ${e.from} asks ${e.to} (round ${e.round}):\n${e.questions.map((q) => `    · ${q}`).join('\n')}\n`);
        break;
      case 'blocker-answer':
        nl();
        out.write(`  ↳ ${e.from} answers: ${e.voice || e.answer || '(no usable answer: DevA decides alone)'}\n`);
        break;
      case 'file-proposed':
        nl();
        out.write(`  ${e.file.status === 'refused' ? '✗ refused' : e.file.action === 'create' ? '+ create ' : e.file.edit ? '~ edit   ' : '~ modify '} ${e.file.path}${e.file.reason ? ` — ${e.file.reason}` : ''}${e.file.warning ? ` ⚠ ${e.file.warning}` : ''}\n`);
        break;
      case 'step-finished':
        nl();
        out.write(`  ✓ saved ${e.artifactPath}\n`);
        break;
      case 'check':
        nl();
        printCheck(out, e.event);
        break;
      case 'error':
        nl();
        out.write(`\n✗ ${e.step ? stepTitle(e.step) + ': ' : ''}${e.message}\n`);
        break;
      case 'session-finished': {
        nl();
        const m = e.metrics;
        out.write(`\nRetrospective: ${e.retrospectivePath}\n`);
        for (const k of ['keep', 'problem', 'try'] as const) {
          out.write(`${k[0].toUpperCase() + k.slice(1)}:\n${e.kpt[k].map((t) => `  - ${t}`).join('\n') || '  (none)'}\n`);
        }
        if (e.openQuestions.length) {
          // the ones to decide first, then those a later role answered from the workspace
          const ordered = [...e.openQuestions.filter((q) => !q.answer), ...e.openQuestions.filter((q) => q.answer)];
          out.write(`Open questions:\n${ordered.map((q) => `  ${QUESTION_MARKS[questionState(q)]} ${questionLine(q)}`).join('\n')}\n`);
        }
        out.write(
          `ASS avg ${fmt(m.assAverage)} · SV ${fmt(m.satisfactionVariance)} · ST ${fmt(m.satisfactionTrend)} · XRF ${m.crossReferenceFrequency} · CI ${m.conversationIndex} · ` +
            `tokens in ${m.totalUsage.inputTokens} out ${m.totalUsage.outputTokens} · ${m.totalCostUsd === null ? 'cost unknown' : formatUsd(m.totalCostUsd)}` +
            (m.criteria.length ? ` · ${tsrSummary(m)}` : '') +
            '\n',
        );
        break;
      }
    }
  };
}
