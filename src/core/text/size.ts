const UNITS = ['KB', 'MB', 'GB', 'TB'];

/**
 * A size in bytes as a person reads it — the one way CAPE writes a size (a chip's "read src/app.ts · 2.1 KB", a
 * refusal's "is 10.1 MB, over the 10 MB limit", a limit's "256 KB"): "812 B" under 1 KB, else KB/MB/GB (of 1024)
 * with one decimal, "2.1 KB", and none when it is zero, "256 KB", "1 MB". Rounded up, never down: a size over a limit
 * never reads as the limit itself ("1 MB, over the 1 MB limit"), and a non-empty file never as less than it is.
 */
export function formatBytes(bytes: number): string {
  const n = Number.isFinite(bytes) && bytes > 0 ? Math.ceil(bytes) : 0;
  if (n < 1024) return `${n} B`;
  // tenths of the unit, rounded up; n * 10 is a whole number and dividing by a power of two is exact in a double
  let unit = 0;
  let tenths = Math.ceil((n * 10) / 1024);
  while (tenths >= 10240 && unit < UNITS.length - 1) {
    unit++;
    tenths = Math.ceil((n * 10) / 1024 ** (unit + 1));
  }
  return `${tenthsText(tenths)} ${UNITS[unit]}`;
}

/** A whole number of tenths as a figure with one decimal, none when it is zero (21 → "2.1", 20 → "2"): sizes and durations. */
export function tenthsText(tenths: number): string {
  return tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
}
