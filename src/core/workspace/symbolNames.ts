// How a symbol list names a method: with its type, `Router.HandleFunc` (Go's `func (r *Router) HandleFunc`, the
// `pub fn parse` of a Rust `impl Version`; a TS/JS class's members, a Rust trait's and a Go interface's methods in
// interface lines, and a class's constructor there as `new Command`) — the one place of those formats, and of the
// name such a symbol declares, which the ranking matches against the identifiers a request writes.

/** A method's symbol: its type's name, a dot, its own name. */
export function methodSymbol(type: string, name: string): string {
  return `${type}.${name}`;
}

/** A class's constructor's symbol, as it is called: `new Command` (a TS/JS class's, in interface lines only). */
export function constructorSymbol(type: string): string {
  return `new ${type}`;
}

/** A method's symbol (methodSymbol's format, identifiers both sides of the dot). */
const METHOD_SYMBOL = /^[A-Za-z_]\w*\.([A-Za-z_]\w*)$/;

/** The name a symbol stands for: a method's own (`HandleFunc` of `Router.HandleFunc`), any other symbol itself. */
export function symbolOwnName(symbol: string): string {
  // most symbols have no dot: the ranking asks of every symbol of every file it scores
  return symbol.includes('.') ? (METHOD_SYMBOL.exec(symbol)?.[1] ?? symbol) : symbol;
}
