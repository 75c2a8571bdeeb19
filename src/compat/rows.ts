// The official helpers over JSONEachRowWithProgress lines: which kind of line a parsed row is
// (isRow, isProgressRow, isException), and defaultJSONHandling. Runtime-neutral (drain.ts has
// drainStream, over a Node stream).
// Invariant: the same answers as @clickhouse/client 1.x's for every input (an object with exactly
// the one key).
import type { JSONHandling } from './options.js';

export interface ProgressRow { progress: { read_rows: string; read_bytes: string; elapsed_ns: string; total_rows_to_read?: string } }

function onlyKey(row: unknown, key: string): boolean {
  return row !== null && typeof row === 'object' && key in row && Object.keys(row).length === 1;
}

export const isRow = <T>(row: unknown): row is { row: T } => onlyKey(row, 'row');
export const isProgressRow = (row: unknown): row is ProgressRow => onlyKey(row, 'progress');
export const isException = (row: unknown): row is { exception: string } => onlyKey(row, 'exception');

export const defaultJSONHandling: JSONHandling = { parse: JSON.parse, stringify: JSON.stringify };
