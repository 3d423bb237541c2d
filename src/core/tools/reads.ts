// What a step's tool calls read of the workspace — the files read_file returned, whole or by line range — so the next
// step can build on it: DevA's ranking weighs the files DA read, and its workspace section names them.
import type { ToolCallRecord } from '../model/types';

export interface FileRead {
  path: string;
  /** The line ranges read (1-based, inclusive), in the order read; absent when the file was read whole. */
  lines?: [number, number][];
}

/** The files the calls' read_file returned (refused, limited and failed calls read nothing), first read first. */
export function filesRead(records: readonly ToolCallRecord[] | undefined): FileRead[] {
  const byPath = new Map<string, FileRead>();
  for (const c of records ?? []) {
    if (c.tool !== 'read_file' || !c.path || c.refused || c.limited || c.chars <= 0) continue;
    const seen = byPath.get(c.path);
    if (!c.lines) byPath.set(c.path, { path: c.path });
    else if (!seen) byPath.set(c.path, { path: c.path, lines: [c.lines] });
    else if (seen.lines) seen.lines.push(c.lines);
  }
  return [...byPath.values()];
}
