// Init's workspace facts (initFacts.ts), what a go.mod says, read line by line (its format needs no library), as
// fact lines: the module path, the go version, the toolchain, the required modules (the direct ones named with their
// versions, the `// indirect` ones counted, or none) and the tools (Go 1.24's `tool`). The modules a go.work uses, its
// workspace's members, are workspace/members.ts's.
import { listLine, nameOf, noneLine, type ManifestFacts } from './initManifests';
import { directives, unquoted, type Directive } from '../workspace/goDirectives';

/** The first argument of a directive (the module path of `require a v1.2.3`) and the rest (`v1.2.3`). */
function argsOf(d: Directive): { path: string; rest: string } {
  const space = d.args.search(/\s/);
  return space < 0 ? { path: unquoted(d.args), rest: '' } : { path: unquoted(d.args.slice(0, space)), rest: d.args.slice(space).trim() };
}

/** The fact lines of a go.mod, its lists within `list` characters. */
export function goModFacts(text: string, list: number): ManifestFacts {
  const all = directives(text);
  const lines: string[] = [];
  for (const verb of ['module', 'go', 'toolchain'] as const) {
    const d = all.find((x) => x.verb === verb);
    if (d) lines.push(`- ${verb}: ${nameOf(unquoted(d.args))}`);
  }
  const required = all.filter((d) => d.verb === 'require');
  const indirect = required.filter((d) => /^indirect\b/.test(d.comment)).length;
  const direct = required.filter((d) => !/^indirect\b/.test(d.comment)).map((d) => argsOf(d)).map(({ path, rest }) => nameOf(rest ? `${path} ${rest}` : path));
  if (direct.length) lines.push(...listLine(`require (${direct.length} direct${indirect ? `, ${indirect} indirect` : ''})`, direct, list));
  else if (indirect) lines.push(`- require: ${indirect} indirect`);
  // a module that requires nothing says so: a model could not tell "the standard library only" from a list left out
  else if (lines.length) lines.push(noneLine('require', 'it imports only the standard library and its own packages'));
  lines.push(...listLine('tool', all.filter((d) => d.verb === 'tool').map((d) => nameOf(argsOf(d).path)), list));
  return { lines: lines.length ? lines : ['- (no module, go version or requirements)'] };
}
