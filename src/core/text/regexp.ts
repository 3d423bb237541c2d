// A literal inside a regular expression: the one escaper of core (a file or test name searched for in a check's
// output, the literal parts of a glob).

/** `text` as a RegExp source that matches exactly it (outside a character class; valid with and without the u flag). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
