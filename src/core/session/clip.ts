// Single parts cut to a budget (a team file's opening, an upstream excerpt, an agent's output in the retrospective):
// at the last line or sentence end before the limit (clip), with an open code fence closed before the marker
// (clipMarkdown), and lists kept item by item (boundedList). Everything here returns at most the budget it is given.
// Whole project files packed section by section are packing.ts's.

import { openFenceAt, sliceWhole } from '../text';

const SENTENCE_END = /[.!?。！？](?=\s|$)|[。！？]/g;

/** What clip puts where it cut a text, unless told otherwise. */
export const CLIP_MARK = ' […]';

/**
 * The text cut to at most `max` characters (marker included) at the last line end, or else sentence end, before the
 * limit — never mid-sentence when a boundary exists. Text within the limit is returned unchanged.
 */
export function clip(text: string, max: number, marker = CLIP_MARK): string {
  if (text.length <= max) return text;
  const room = max - marker.length;
  if (room <= 0) return '';
  const head = sliceWhole(text, 0, room);
  let cut = head.lastIndexOf('\n');
  let end = -1;
  for (const m of head.matchAll(SENTENCE_END)) end = m.index! + m[0].length;
  if (end > cut) cut = end;
  if (cut < room * 0.3) {
    // No boundary in most of the room: cut at the last space (or hard) rather than keep almost nothing.
    const sp = head.lastIndexOf(' ');
    cut = sp > room * 0.3 ? sp : room;
  }
  return head.slice(0, cut).trimEnd() + marker;
}

/** The marker of a markdown part cut to fit (packing.ts gives an opening it cut more room when some is left). */
export const CUT = '\n[… cut to fit the context budget]';

/**
 * clip() for markdown: a cut inside fenced code closes the fence before the marker (within `max`), so the marker and
 * whatever follows the clipped text are not read as code.
 */
export function clipMarkdown(text: string, max: number, marker = CUT): string {
  let out = clip(text, max, marker);
  for (let reserve = 0; out !== text && out; ) {
    const kept = out.slice(0, out.length - marker.length);
    const fence = openFenceAt(kept);
    if (!fence) return out;
    if (kept.length + fence.length + 1 + marker.length <= max) return `${kept}\n${fence}${marker}`;
    reserve = Math.max(reserve + 1, fence.length + 1);
    out = clip(text, max - reserve, marker);
  }
  return out;
}

/** A list of strings, each kept whole (or clipped to `perItem`), as many as fit in `max` characters of JSON. */
export function boundedList(items: unknown, max: number, perItem = 600): string[] {
  if (!Array.isArray(items)) return [];
  const out: string[] = [];
  let used = 2;
  for (const raw of items) {
    const item = clip(typeof raw === 'string' ? raw : JSON.stringify(raw), perItem);
    if (used + item.length + 4 > max) {
      out.push(`(${items.length - out.length} more not shown)`);
      break;
    }
    out.push(item);
    used += item.length + 4;
  }
  return out;
}
