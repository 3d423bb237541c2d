// Signatures of Rust, Go and Python declarations (signatures.ts): found by symbolsOther.ts's and symbolsRust.ts's
// line rules, so each is keyed by the symbol the map names (`Version.new` of a Rust impl block, Go's
// `Router.HandleFunc`): functions with their parameters and return type, Rust's structs with their public fields and
// their types, enums with their variants, traits with their methods, Go's structs with their exported fields and
// their types, interfaces with their exported methods; Python's functions, and its classes (signaturesPy.ts).

import { FALLBACK_DECL, GO_METHOD, GO_RECEIVER, RUST_CONST } from './symbolsOther';
import { RUST_METHOD, RustImpls } from './symbolsRust';
import { methodSymbol } from './symbolNames';
import { bracketed, closing, flatten, skipSpace, topIndex, afterTypeParams, withoutLifetimes } from './signatureText';
import { pyClass } from './signaturesPy';
import { bodyItems, codeAfter, declarationSpan, declaredType, fnSignature, keywordOf, membersSignature, typeAlias, typedMember, type Add, type MemberFocus, type Site, type TypeMember } from './signatureDecls';

/** Rust: the top-level items (FALLBACK_DECL, RUST_CONST) and the methods of impl blocks (`Type.method`, symbolsRust.ts). */
export function rustDeclarations(lines: readonly string[], add: Add, focus?: MemberFocus): void {
  const impls = new RustImpls(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let method = '';
    if (impls.read(line, (symbol) => (method = symbol))) {
      if (method) {
        const indent = /^[ \t]*/.exec(line)![0].length;
        const m = RUST_METHOD.exec(line.slice(indent))!;
        add(method, () => fnSignature(method, { lines, line: i, col: indent + m[0].length, lang: 'rust' }));
      }
      continue;
    }
    const c = RUST_CONST.exec(line);
    if (c) {
      add(c[1], () => rustConstant(c[1], { lines, line: i, col: c[0].length, lang: 'rust' }));
      continue;
    }
    const m = FALLBACK_DECL.exec(line);
    if (m) add(m[1], () => rustItem(keywordOf(m[0], m[1]), m[1], { lines, line: i, col: m[0].length, lang: 'rust', focus }));
  }
}

/** `MAX_LEN: usize`: a constant's or a static's type. */
function rustConstant(name: string, at: Site): string {
  const s = codeAfter(at);
  const end = topIndex(s, 0, 'rust', (c) => c === '=' || c === ';' || c === '\n');
  return declaredType(name, withoutLifetimes(end < 0 ? s : s.slice(0, end)));
}

/** A Rust field (code spaced by one, brackets emptied: flatten): whether it is `pub` (not `pub(crate)`), and its name. */
const RUST_FIELD = /^(pub\s+)?(?:pub\s*\(\)\s*)?([A-Za-z_]\w*)\s*:/;

/** A Rust item: a function's signature, a struct's public fields with their types (`..` for others), an enum's variants, a trait by its name. */
function rustItem(keyword: string, name: string, at: Site): string | null {
  if (keyword === 'fn') return fnSignature(name, at);
  if (!['struct', 'union', 'enum', 'trait', 'type'].includes(keyword)) return null;
  const s = codeAfter(at, 'body');
  const i = topIndex(s, 0, 'rust', (c) => '{;(='.includes(c));
  const head = `${keyword} ${name}`;
  if (i < 0 || s[i] === ';') return head;
  if (keyword === 'type') return s[i] === '=' ? typeAlias(name, withoutLifetimes(s.slice(skipSpace(s, i + 1))), 'rust') : head;
  if (s[i] === '(') {
    const close = closing(s, i, 'rust', true);
    return bracketed(head, '(', withoutLifetimes(s.slice(i + 1, close < 0 ? s.length : close).replace(/\bpub(?:\([^)]*\))?\s+/g, '')), ')', '', close >= 0);
  }
  // a trait's methods are named after it (interfaceMethods)
  if (keyword === 'trait') return head;
  const items = bodyItems(s, i, 'rust');
  if (keyword === 'enum') return membersSignature(head, items.flatMap((item) => /^[A-Za-z_]\w*/.exec(item)?.[0] ?? []));
  const fields = items.flatMap((item) => {
    const f = RUST_FIELD.exec(flatten(item, 'rust'));
    return f ? [{ pub: !!f[1], text: withoutLifetimes(typedMember(f[2], item, 'rust')) }] : [];
  });
  const shown = fields.filter((f) => f.pub).map((f) => f.text);
  return membersSignature(head, shown, shown.length < fields.length, at.focus);
}

/** Go: exported fields of a struct, methods and embedded interfaces of an interface (`A, B int` names two). */
const GO_FIELDS = /^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+[^\s,]/;
const GO_EMBEDDED = /^\*?(?:[A-Za-z_]\w*\.)?([A-Za-z_]\w*)(?:\[\])?\s*(?:``|"")?$/;
const GO_METHOD_SPEC = /^([A-Za-z_]\w*)\s*\(/;

/** Go (functions, methods as `Type.Method`, types) and Python (functions, classes): FALLBACK_DECL's lines. */
export function fallbackDeclarations(lines: readonly string[], lang: 'go' | 'py', add: Add, focus?: MemberFocus): void {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const method = lang === 'go' ? GO_METHOD.exec(line) : null;
    if (method) {
      const receiver = GO_RECEIVER.exec(line)?.[1];
      const symbol = receiver ? methodSymbol(receiver, method[1]) : method[1];
      add(symbol, () => fnSignature(symbol, { lines, line: i, col: method[0].length, lang }));
      continue;
    }
    const m = FALLBACK_DECL.exec(line);
    if (!m) continue;
    const at: Site = { lines, line: i, col: m[0].length, lang, focus };
    const keyword = keywordOf(m[0], m[1]);
    if (keyword === 'func' || keyword === 'def') add(m[1], () => fnSignature(m[1], at));
    else if (keyword === 'type' && lang === 'go') add(m[1], () => goType(m[1], at));
    else if (keyword === 'class' && lang === 'py') add(m[1], () => pyClass(m[1], at));
  }
}

/** A Rust trait's method item (code spaced by one, attributes dropped: bodyItems): `fn show`, `async unsafe fn run`. */
const RUST_TRAIT_FN = /^(?:(?:async|const|unsafe|extern(?: "[^"]*")?|default) )*fn ([A-Za-z_]\w*)/;

/**
 * The methods of the file's Rust traits, or its Go interfaces' exported ones, in file order, each named after its
 * type (`Show.show`, `Handler.ServeHTTP`) with its signature read from its item of the body (bodyItems, the whole body
 * up to its end: reach 'methods', declarationSpan): parameters and return type, as a function's.
 */
export function interfaceMethods(lines: readonly string[], lang: 'rust' | 'go'): TypeMember[] {
  const out: TypeMember[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FALLBACK_DECL.exec(lines[i]);
    if (!m || keywordOf(m[0], m[1]) !== (lang === 'rust' ? 'trait' : 'type')) continue;
    const type = m[1];
    const at: Site = { lines, line: i, col: m[0].length, lang };
    // the type's own lines only; a Go type's kind seen from its header first, so a struct's body is not read
    const span = declarationSpan(lines, i, (l) => FALLBACK_DECL.test(l));
    let items: string[] = [];
    if (lang === 'go') {
      if (goDecl(at, 'header', span).kind === 'interface') items = goDecl(at, 'methods', span).items();
    } else {
      const s = codeAfter(at, 'methods', span);
      items = bodyItems(s, topIndex(s, 0, 'rust', (c) => '{;'.includes(c)), 'rust', /[;\n]/);
    }
    for (const item of items) {
      const fn = (lang === 'rust' ? RUST_TRAIT_FN : GO_METHOD_SPEC).exec(item);
      if (!fn || (lang === 'go' && !exported(fn[1]))) continue;
      const symbol = methodSymbol(type, fn[1]);
      // the site just after the method's name in its item (a Go method spec starts with it)
      const col = lang === 'rust' ? fn[0].length : fn[1].length;
      out.push({ type, symbol, signature: () => fnSignature(symbol, { lines: [item], line: 0, col, lang }) });
    }
  }
  return out;
}

/** A Go field's type without its tag (`json:"name"`): the text before the string that follows it. */
function withoutTag(type: string): string {
  const tag = topIndex(type, 0, 'go', (c, i) => c === ' ' && (type[i + 1] === '`' || type[i + 1] === '"'));
  return (tag < 0 ? type : type.slice(0, tag)).trim();
}

/**
 * A Go type's code after its name (read as far as `reach`, over `span` lines at most: codeAfter), where its type
 * starts, and its kind and body's items when a struct or an interface.
 */
function goDecl(at: Site, reach: 'header' | 'body' | 'methods' = 'body', span = Infinity) {
  const s = codeAfter(at, reach, span);
  const i = afterTypeParams(s, 0, 'go');
  const kind = /^(struct|interface)\s*(?=\{)/.exec(s.slice(i, i + 12));
  return { s, i, kind: kind?.[1], items: () => (kind ? bodyItems(s, skipSpace(s, i + kind[0].length), 'go', /[;\n]/) : []) };
}

/** A Go name that is exported: capitalised. */
const exported = (n: string) => /^[A-Z]/.test(n);

/**
 * `struct Router { NotFoundHandler http.Handler, A, C int, … }` (exported fields with their types, embedded types by
 * name), `interface Handler { Reader }` (its embedded interfaces: its methods are named after it, interfaceMethods),
 * `type HandlerFunc func(…)`.
 */
function goType(name: string, at: Site): string {
  const { s, i, kind, items } = goDecl(at);
  if (!kind) {
    const end = s.indexOf('\n', i);
    const rest = (end < 0 ? s.slice(i) : s.slice(i, end)).trim();
    return rest ? bracketed(`type ${name} `, '', rest, '') : `type ${name}`;
  }
  const members = items().flatMap((item) => {
    const flat = flatten(item, 'go');
    if (kind === 'interface' && GO_METHOD_SPEC.test(flat)) return [];
    const fields = kind === 'struct' ? GO_FIELDS.exec(flat) : null;
    if (fields) {
      const names = fields[1].split(',').map((f) => f.trim()).filter(exported);
      return names.length ? [`${names.join(', ')} ${withoutTag(item.slice(fields[1].length))}`] : [];
    }
    const embedded = GO_EMBEDDED.exec(flat)?.[1];
    return embedded && exported(embedded) ? [embedded] : [];
  });
  return membersSignature(`${kind} ${name}`, members, false, kind === 'struct' ? at.focus : undefined);
}
