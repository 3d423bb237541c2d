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
