// The English demo session written for this project (test/demo/): used by the README's run line, the e2e tests
// and as filler replies when a test needs a complete session of its own.
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './fixtures';
import { contentText, type LlmClient, type LlmRequest } from '../../src/core/model/types';

export function demoDir(): string {
  return path.join(repoRoot(), 'test', 'demo');
}

/** The five replies (CM opening, POA, DA, DevA, CM retro) with the task id filled in. */
export function demoReplies(taskId: string): string[] {
  const dir = path.join(demoDir(), 'session');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('{{task_id}}').join(taskId));
}

/** A test DevA names for a criterion (`criteria_tests`): one in a file, or a check command that proves it as a whole. */
export type CriterionTest = { criterion: string; file: string; test: string; expect: 'fail' | 'pass' } | { criterion: string; check: string };

/**
 * The five demo replies for a task, DevA's carrying `blocks` (its <edit> and <file> blocks) before its summary and
 * `tests` as its `criteria_tests`: a session of the demo's words about a project of the test's own.
 */
export function demoRepliesWithDevA(taskId: string, blocks: string, tests: readonly CriterionTest[]): string[] {
  const replies = demoReplies(taskId);
  const deva = replies[3];
  if (!deva.includes('"test_strategy":') || !deva.includes('<summary>')) throw new Error('the demo DevA reply changed: no test_strategy or <summary> to splice at');
  replies[3] = deva.replace('"test_strategy":', `"criteria_tests": ${JSON.stringify(tests)}, "test_strategy":`).replace('<summary>', `${blocks}\n\n<summary>`);
  return replies;
}

/** A demo CM opening reply with its dor_check replaced (e.g. failed, with the Cape Master's blocking questions). */
export function withDorCheck(opening: string, dorCheck: { passed: boolean; concerns: string[]; questions?: string[] }): string {
  const envelope = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(opening)![1]);
  envelope.output.dor_check = dorCheck;
  return '```json\n' + JSON.stringify(envelope, null, 2) + '\n```\n';
}

/** Reads the task id the runner put in the user message ("Task: <id>"). */
export function taskIdOf(body: any): string {
  const text = JSON.stringify(body?.messages ?? '');
  const m = /Task: (task-[\w-]+)/.exec(text);
  return m ? m[1] : 'task-demo';
}

interface InputsJson {
  decisions: { key: string; meaning: string }[];
  files: { path: string; sections: string[] }[];
}
function inputsJson(): InputsJson {
  return JSON.parse(fs.readFileSync(path.join(repoRoot(), 'prompts', 'inputs.json'), 'utf8'));
}

/** True for init's first request, the one that fixes the shared decisions (prompts/roles/init_decisions.md). */
export function isDecisionsRequest(body: any): boolean {
  const s = body?.system;
  const text = Array.isArray(s) ? s.map((b: any) => b.text ?? '').join('\n') : String(s ?? '');
  return /fix the shared decisions/i.test(text);
}

/** A valid reply to the decisions request: one `- key: value` line per decision of prompts/inputs.json. */
export function demoDecisions(valueOf: (key: string) => string = (k) => `demo value of ${k}`): string {
  return inputsJson()
    .decisions.map((d) => `- ${d.key}: ${valueOf(d.key)}`)
    .join('\n');
}

/**
 * A plausible generated input file for the init questionnaire (the fake server's answer to an init request): the
 * frontmatter, a title, the answers, and one heading with a line for each required section, so it passes init's checks.
 */
export function demoInputFile(relPath: string, answers: Record<string, string>): string {
  const title = path.basename(relPath, '.md').replace(/^\d+_/, '').replace(/_/g, ' ');
  const sections = inputsJson().files.find((f) => f.path === relPath)?.sections ?? ['Overview', 'Details', 'Notes'];
  return [
    '---',
    'type: input',
    '---',
    '',
    `# ${title[0].toUpperCase()}${title.slice(1)}`,
    '',
    `Product: ${answers.product ?? ''}`,
    '',
    `- Users: ${answers.users ?? ''}`,
    `- Problem: ${answers.problem ?? ''}`,
    `- Stack: ${answers.stack ?? ''}`,
    `- Design feel: ${answers.designFeel ?? ''}`,
    `- v1 features: ${answers.features ?? ''}`,
    '',
    ...sections.flatMap((s) => [`## ${s.split(' — ')[0]}`, '', `What this section says for ${answers.product ?? 'the product'}: ${s}.`, '']),
  ].join('\n');
}

/**
 * An LlmClient that answers init's requests as the demo does (demoDecisions, demoInputFile for the file a request
 * asks for) and records each request in `requests`.
 */
export function demoInitLlm(answers: Record<string, string>, requests: LlmRequest[]): LlmClient {
  return {
    async stream(req: LlmRequest, onText: (d: string) => void) {
      requests.push(req);
      const file = /Write cape\/(\S+) now/.exec(contentText(req.messages[0].content))?.[1];
      const text = file ? demoInputFile(file, answers) : demoDecisions();
      onText(text);
      return { text, usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, stopReason: 'end_turn', model: req.model };
    },
  };
}

export function demoAnswers(): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(demoDir(), 'answers.json'), 'utf8'));
}

/** The JSON envelope of each demo reply (its fenced json block), parsed independently of the product. */
export function demoEnvelopes(taskId = 'task-demo'): any[] {
  return demoReplies(taskId).map((raw) => {
    const m = /```json\s*([\s\S]*?)```/.exec(raw);
    if (!m) throw new Error(`a demo reply has no fenced json block: ${raw.slice(0, 80)}`);
    return JSON.parse(m[1]);
  });
}

/** A request body's system blocks and messages as one text (what the model read). */
export function requestText(body: any): string {
  const sys = Array.isArray(body?.system) ? body.system.map((b: any) => b.text ?? '').join('\n') : String(body?.system ?? '');
  const msgs = (body?.messages ?? []).map((m: any) => (typeof m.content === 'string' ? m.content : m.content.map((c: any) => c.text ?? '').join('\n')));
  return [sys, ...msgs].join('\n');
}

/** A demo reply with keys of its JSON `output` replaced (a string replaces the whole output); what follows the JSON stays. */
export function withDemoOutput(raw: string, patch: Record<string, unknown> | string): string {
  const start = raw.indexOf('{');
  const end = raw.indexOf('\n```', start);
  const json = JSON.parse(raw.slice(start, end)) as { output: unknown };
  json.output = typeof patch === 'string' ? patch : { ...(json.output as Record<string, unknown>), ...patch };
  return raw.slice(0, start) + JSON.stringify(json, null, 2) + raw.slice(end);
}
