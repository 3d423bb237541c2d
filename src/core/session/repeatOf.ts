// The task ids of `cape repeat`'s reruns: `<task>-repeat-<n>`, the saved id shortened when the whole would pass the
// longest task id. One rule, read by the runner (KPT digest) and by repeat.ts (naming the reruns).
import { MAX_TASK_ID_CHARS } from '../store/records';

/** The id of rerun `n` of the saved session `taskId` (at most MAX_TASK_ID_CHARS characters). */
export function repeatTaskId(taskId: string, n: number): string {
  const suffix = `-repeat-${n}`;
  return `${taskId.slice(0, Math.max(1, MAX_TASK_ID_CHARS - suffix.length))}${suffix}`;
}

/** Whether a KPT item's task is the saved session `taskId` or one of its reruns. */
export function isRepeatOf(itemTask: string | null, taskId: string): boolean {
  if (!itemTask) return false;
  if (itemTask === taskId) return true;
  const n = /-repeat-(\d+)$/.exec(itemTask)?.[1];
  return n !== undefined && repeatTaskId(taskId, Number(n)) === itemTask;
}
