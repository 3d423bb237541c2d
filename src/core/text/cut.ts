/**
 * `text.slice(start, end)` moved off the middle of a surrogate pair: a cut never leaves half of an astral character
 * (an emoji, a rare CJK ideograph), which would reach the model as a lone surrogate — invalid in the JSON of a request.
 * The start moves forward and the end back, so the slice is never longer than asked.
 */
export function sliceWhole(text: string, start: number, end = text.length): string {
  const low = (i: number) => i > 0 && i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00;
  if (low(start)) start++;
  if (low(end)) end--;
  return text.slice(start, Math.max(start, end));
}

/**
 * The first `max` characters of a text (sliceWhole), and when more follow, a line saying how many were not shown:
 * the one way the head of a document (a kept cape/ file, a README) is quoted in a prompt. The note comes on top of
 * `max`: NOT_SHOWN_CHARS at most.
 */
export function headOf(text: string, max: number): string {
  const kept = sliceWhole(text, 0, max);
  return kept.length < text.length ? `${kept}\n[… ${text.length - kept.length} more characters not shown]` : text;
}

/** The longest note headOf adds after a cut (a count of up to 12 digits). */
export const NOT_SHOWN_CHARS = '\n[…  more characters not shown]'.length + 12;

/**
 * Items joined by `sep` while they fit in `max` characters, then `more(n)` for the n left out: the one way a list is
 * cut to a bound in a prompt. An item is shortened (shorten) to the room left when at least `minItem` characters
 * remain for it; the result never exceeds `max` (but for a first item and its count that do not fit in it together).
 */
export function joinWithin(items: readonly string[], max: number, sep: string, more: (n: number) => string, minItem = 40): string {
  const moreOf = (n: number) => (n ? more(n) : '');
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const rest = items.length - i - 1;
    const room = max - (out ? out.length + sep.length : 0) - moreOf(rest).length;
    if (out && room < Math.min(minItem, items[i].length)) return out + moreOf(rest + 1);
    // shorten() adds its mark after the cut: one character less
    const item = items[i].length > room ? shorten(items[i], Math.max(1, room - 1)) : items[i];
    out = out ? `${out}${sep}${item}` : item;
  }
  return out;
}

/** Text as one line: every run of whitespace (newlines too) one space, none at the ends (a list item, a quoted value). */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The text as it is when it has at most `max` characters, else its first `max` (never half of a surrogate pair) and
 * `mark`: the one way a name, a line or a value is shortened for a message or a prompt.
 */
export function shorten(text: string, max: number, mark = '…'): string {
  return text.length > max ? sliceWhole(text, 0, max) + mark : text;
}

/**
 * The text as one line (oneLine) that fits in `max` characters counted as a person sees them (code points, so an
 * emoji is one), the '…' of a cut included: the one rule of a row a person reads in a list — a tree label, a quick
 * pick's label or detail, an item of the KPT digest. Where the mark may come on top of a budget, shorten() is the rule.
 */
export function lineWithin(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line; // UTF-16 length ≥ code points: short enough, no need to count
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const keep = Math.max(1, max - 1);
  let head = chars.slice(0, keep).join('');
  // a cut inside a word ends at the space before it, when that costs at most a quarter of the room: "as fail-fir…"
  // tells less than "as…"; a text without spaces (Japanese, a long path) is cut where it must
  if (!/\s/.test(chars[keep])) {
    const space = head.lastIndexOf(' ');
    if (space > 0 && Array.from(head.slice(0, space)).length >= keep * 0.75) head = head.slice(0, space);
  }
  return head.trimEnd() + '…';
}
