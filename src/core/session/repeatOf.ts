// The task ids of `cape repeat`'s reruns: `<task>-repeat-<n>`. One rule, read by the runner (KPT digest) and by
// repeat.ts (naming the reruns).

/** The id of rerun `n` of the saved session `taskId`. */
export function repeatTaskId(taskId: string, n: number): string {
  return `${taskId}-repeat-${n}`;
}

/** Whether a KPT item's task is the saved session `taskId` or one of its reruns. */
export function isRepeatOf(itemTask: string | null, taskId: string): boolean {
  if (!itemTask) return false;
  if (itemTask === taskId) return true;
  const prefix = `${taskId}-repeat-`;
  return itemTask.startsWith(prefix) && /^\d+$/.test(itemTask.slice(prefix.length));
}
