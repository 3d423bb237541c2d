// The English demo session written for this project (test/demo/): used by the README's run line, the e2e tests
// and as filler replies when a test needs a complete session of its own.
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './fixtures';

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

/** Reads the task id the runner put in the user message ("Task: <id>"). */
export function taskIdOf(body: any): string {
  const text = JSON.stringify(body?.messages ?? '');
  const m = /Task: (task-[\w-]+)/.exec(text);
  return m ? m[1] : 'task-demo';
}

/** A plausible generated input file for the init questionnaire (the fake server's answer to an init request). */
export function demoInputFile(relPath: string, answers: Record<string, string>): string {
  const title = path.basename(relPath, '.md').replace(/^\d+_/, '').replace(/_/g, ' ');
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
  ].join('\n');
}

export function demoAnswers(): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(demoDir(), 'answers.json'), 'utf8'));
}
