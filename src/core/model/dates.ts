// Every date format CAPE writes or shows, in one place. Local time where a person reads it (as the original CLI
// wrote retrospective names and KPT headers), UTC where only uniqueness matters. And the one bound of a timer's delay.

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD HH:MM`, local time: KPT "_Last updated_" lines, tree and quick-pick labels, the retrospective header. */
export function formatLocalMinute(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
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
 * The longest delay a timer keeps: Node (and browsers) fire a setTimeout of more than 2^31 − 1 ms (about 24.8 days)
 * after 1 ms instead. Every time limit a user can set (idle timeout, check timeout) is armed through timerDelay.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a setTimeout delay: a longer limit waits MAX_TIMER_MS (practically never), never fires at once. */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(ms, 1), MAX_TIMER_MS);
}
