// Many strings replaced in a text in one pass over it (Aho–Corasick): the time is the text's length plus the
// strings', however many strings there are — where a pass per string, or one regular expression alternating them all,
// costs the text's length times their number. The checks hide the secrets' values and their encodings in a check's
// output with it (checks/checkEnv.ts): dozens of strings, over each line of an output of any length.
//
// The automaton is a table (a state and a character give the next state, a typed array lookup), over the characters
// the strings hold: a character none of them holds sends it back to its start.
//
// Ours rather than a library's: the kept one on npm (modern-ahocorasick) matches whole grapheme clusters, so a secret
// whose first or last character joins a neighbour's cluster in the output (a combining mark or a joiner printed next to
// it) is not found — a leak, where hiding must work on UTF-16 code units whatever surrounds them —, and it weighs
// 460 KB against these 80 lines.

/** Every character code: its column in the table (1…), or 0 when no needle holds it. */
const CHAR_CODES = 0x10000;

/**
 * Replaces every occurrence of `needles` in a text, leftmost first, the longest of those starting at the same place,
 * never two that overlap: `mark(i)` stands for needle `i`. Empty needles are ignored; of two equal ones, the first.
 */
export function needleReplacer(needles: readonly string[]): (text: string, mark: (needle: number) => string) => string {
  // the trie: children by character code, and the needle each node ends
  const children: Map<number, number>[] = [new Map()];
  const ends: number[] = [-1];
  const depth: number[] = [0];
  const column = new Int32Array(CHAR_CODES);
  let columns = 0;
  needles.forEach((n, i) => {
    let at = 0;
    for (let k = 0; k < n.length; k++) {
      const c = n.charCodeAt(k);
      if (!column[c]) column[c] = ++columns;
      let to = children[at].get(c);
      if (to === undefined) {
        to = children.push(new Map()) - 1;
        ends.push(-1);
        depth.push(k + 1);
        children[at].set(c, to);
      }
      at = to;
    }
    if (at && ends[at] < 0) ends[at] = i;
  });
  if (!columns) return (text) => text;
  const width = columns + 1;
  const next = new Int32Array(children.length * width);
  const fail = new Int32Array(children.length);
  /** The node itself when it ends a needle, else the nearest down its suffix links that does; -1 when none. */
  const found = new Int32Array(children.length).fill(-1);
  // breadth first: a node's suffix link and row are made from those of nodes nearer the root
  const queue: number[] = [0];
  for (let q = 0; q < queue.length; q++) {
    const at = queue[q];
    if (at) next.copyWithin(at * width, fail[at] * width, fail[at] * width + width);
    for (const [c, child] of children[at]) {
      fail[child] = at ? next[fail[at] * width + column[c]] : 0;
      found[child] = ends[child] >= 0 ? child : found[fail[child]];
      next[at * width + column[c]] = child;
      queue.push(child);
    }
  }
  return (text, mark) => {
    // the longest needle starting at each place one starts at: [length, needle]
    let starts: Map<number, [number, number]> | undefined;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const col = column[text.charCodeAt(i)];
      state = col ? next[state * width + col] : 0;
      for (let o = found[state]; o >= 0; o = found[fail[o]]) {
        const start = i + 1 - depth[o];
        const prev = (starts ??= new Map()).get(start);
        if (!prev || prev[0] < depth[o]) starts.set(start, [depth[o], ends[o]]);
      }
    }
    if (!starts) return text;
    let out = '';
    let from = 0;
    for (const start of [...starts.keys()].sort((a, b) => a - b)) {
      if (start < from) continue; // inside one replaced already
      const [length, needle] = starts.get(start)!;
      out += text.slice(from, start) + mark(needle);
      from = start + length;
    }
    return out + text.slice(from);
  };
}
