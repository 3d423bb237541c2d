// The interface of a JavaScript file whose default export is an anonymous function that installs its API by
// assignments — a plugin (`export default (o, c, d) => { const proto = c.prototype; proto.tz = function (timezone) …;
// d.tz = function (input, arg1, arg2) … }`, Day.js's every plugin), a jQuery-style `module.exports = function ($) {
// $.fn.x = … }`: the index names no top-level symbol there, and the map showed such a file by its path alone (a trial's
// DA saw `src/plugin/timezone/index.js` with nothing after it). The assignments at the function body's first
// indentation to a member path (`proto.tz`, `d.tz.guess`) are its members, each with its parameters when it is a
// function (signaturesTs.ts tsConstant); a path whose last part is `_internal` is left out, as class members are.
import type { Site, TypeMember } from './signatureDecls';
import { tsConstant } from './signaturesTs';

/** An unindented line that opens a default export or `module.exports` of an anonymous function (its body follows). */
const DEFAULT_FUNCTION = /^(?:export\s+default|module\.exports\s*=)\s*(?:async\s+)?(?:function\b(?:\s*\*)?(?:\s*[A-Za-z_$][\w$]*)?\s*\(|\(|[A-Za-z_$][\w$]*\s*=>)/;
/** An assignment to a member path at the start of a body line: `proto.tz = `, `d.tz.setDefault = ` (not `==`). */
const MEMBER_ASSIGNMENT = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\s*=(?![=>])/;
/** The type the members are named under (TypeMember.type): the default export. */
const DEFAULT_EXPORT = 'default';
/** Members read at most: a generated file's thousands would fill a map line's names. */
const MAX_MEMBERS = 200;

/** The members a default-exported anonymous function assigns at its body's first indentation (see the header), in file order, each once. */
export function defaultFunctionMembers(text: string): TypeMember[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => DEFAULT_FUNCTION.test(l));
  if (start < 0) return [];
  const out: TypeMember[] = [];
  const seen = new Set<string>();
  let indent = -1;
  for (let i = start + 1; i < lines.length && out.length < MAX_MEMBERS; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    const at = line.length - line.trimStart().length;
    // the body ends at the first line back at the margin (its closing brace)
    if (at === 0) break;
    if (indent < 0) indent = at;
    if (at !== indent) continue;
    const m = MEMBER_ASSIGNMENT.exec(line.slice(at));
    if (!m || seen.has(m[1]) || /^[_#]/.test(m[1].slice(m[1].lastIndexOf('.') + 1))) continue;
    seen.add(m[1]);
    const site: Site = { lines, line: i, col: at + m[1].length, lang: 'ts' };
    out.push({ type: DEFAULT_EXPORT, symbol: m[1], signature: () => tsConstant(m[1], site) });
  }
  return out;
}
