// Every date format CAPE writes or shows, in one place. Local time where a person reads it (as the original CLI
// wrote retrospective names and KPT headers), UTC where only uniqueness matters. How long something took or may take
// (formatDuration), and the one bound of a timer's delay. No Node imports: the webview bundles it.
import { tenthsText } from '../text/size';

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD`, local time: the day of a release (init's facts: a version tag's). */
export function formatLocalDate(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** `YYYY-MM-DD HH:MM`, local time: KPT "_Last updated_" lines, tree and quick-pick labels, the retrospective header. */
export function formatLocalMinute(d: Date): string {
  return `${formatLocalDate(d)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** `YYYY-MM-DD_HH-MM`, local time: the stamp that starts a retrospective's file name. */
export function retrospectiveStamp(d: Date): string {
  return formatLocalMinute(d).replace(' ', '_').replace(':', '-');
}

/** `YYYYMMDD-HHMMSS`, UTC: the suffix of a file kept aside (e.g. `kpt_merged.md.unreadable-…`). */
export function asideStamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * A duration as a person reads it — the one way CAPE writes how long a step, a check or a session took, a retry's
 * wait or a time limit: "450 ms", "1.5 s" (one decimal under 10 s, none when it is zero: "2 s"), "12 s",
 * "3 min 5 s", "5 min", "1 h 2 min". Rounded to what is shown; "—" for a negative or non-finite value.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 100) return `${tenthsText(tenths)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const minutes = Math.round(s / 60);
  const h = Math.floor(minutes / 60);
  return minutes % 60 ? `${h} h ${minutes % 60} min` : `${h} h`;
}

/**
 * The longest delay a timer keeps: Node (and browsers) fire a setTimeout of more than 2^31 − 1 ms (about 24.8 days)
 * after 1 ms instead. Every time limit a user can set (idle timeout, check timeout) is armed through timerDelay.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a setTimeout delay: a longer limit waits MAX_TIMER_MS (practically never), never fires at once. */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(ms, 1), MAX_TIMER_MS);
}
