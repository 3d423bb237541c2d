// How a tool call reads to a person — one wording for the CLI transcript and the chat panel's chips
// ("DevA read src/app.ts · 2.1 KB", "DevA searched getTheme in src · 3 hits"). No Node imports: the webview bundles it.
import type { ToolCallRecord } from '../model/types';
import { formatBytes } from '../text/size';

const VERB: Record<string, string> = { read_file: 'read', search_files: 'searched', list_files: 'listed' };

/** The call in one line, e.g. "DevA read src/app.ts · 2.1 KB" or "DevA read .env — refused: secret file …". */
export function describeToolCall(agent: string, c: ToolCallRecord): { text: string; tone: 'ok' | 'warning' } {
  // an own key only: a tool the model named "constructor" is called, not Object's source text
  const verb = Object.hasOwn(VERB, c.tool) ? VERB[c.tool] : `called ${c.tool}`;
  // a search names where it looked: a trial's DA searched maxAge in docs and in test, two chips alike but for their hits
  const target = c.tool === 'read_file' && c.lines ? `${c.target}:${c.lines[0]}–${c.lines[1]}` : c.tool === 'search_files' && c.path && c.target ? `${c.target} in ${c.path}` : c.target;
  const head = `${agent} ${verb} ${target || '(nothing)'}`;
  if (c.limited) return { text: `${head} — limit reached`, tone: 'warning' };
  if (c.refused) return { text: `${head} — refused: ${c.refused}`, tone: 'warning' };
  let tail: string;
  if (c.tool === 'search_files') tail = `${c.hits ?? 0} hit${c.hits === 1 ? '' : 's'}`;
  else if (c.tool === 'list_files') tail = `${c.hits ?? 0} file${c.hits === 1 ? '' : 's'}`;
  else tail = formatBytes(c.chars); // one character counted as one byte
  return { text: `${head} · ${tail}${c.truncated ? ' (cut at the budget)' : ''}`, tone: 'ok' };
}
