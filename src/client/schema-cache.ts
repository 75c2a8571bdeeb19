// The insert-schema cache: table → its insertable columns, as learnt from the server.
// Invariants: bounded (least recently used entries beyond `limit` are dropped, so a client that
// inserts into thousands of tables holds at most `limit` schemas, and no compiled encoder is kept
// alive through it: encoders live only in the encoder's own bounded cache); an entry is served
// only while it is younger than the age the caller accepts; a failed read is never cached; any
// DDL statement this client runs through execute() drops every entry (isSchemaChange).
import type { TableColumn } from './insert/insert-types.js';

interface Entry {
  readonly columns: Promise<TableColumn[]>;
  /** performance.now() when the read was sent. */
  readonly startedAt: number;
}

export class SchemaCache {
  private readonly map = new Map<string, Entry>();
  constructor(readonly limit = 256, private readonly now: () => number = () => performance.now()) {}

  /**
   * The cached read of `key` if it started no more than `maxAge` ms ago, or (for maxAge 0: read
   * for every insert) if it started at or after `since`, the time the asking call began.
   */
  get(key: string, maxAge: number, since: number): { columns: Promise<TableColumn[]>; startedAt: number } | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (e.startedAt < since && this.now() - e.startedAt > maxAge) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e;
  }

  /** Starts caching a read; a read that fails removes itself. */
  set(key: string, columns: Promise<TableColumn[]>): number {
    const e: Entry = { columns, startedAt: this.now() };
    this.map.delete(key);
    this.map.set(key, e);
    while (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as string);
    columns.catch(() => { if (this.map.get(key) === e) this.map.delete(key); });
    return e.startedAt;
  }

  keys(): IterableIterator<string> { return this.map.keys(); }
  delete(key: string): void { this.map.delete(key); }
  clear(): void { this.map.clear(); }
  get size(): number { return this.map.size; }
}

/**
 * Whether a statement may change some table's columns (DDL): ALTER, CREATE, DROP, RENAME,
 * EXCHANGE, ATTACH, DETACH, REPLACE, after any leading comments and whitespace. Conservative:
 * the caller drops every cached schema, since the statement's target is not parsed.
 */
export function isSchemaChange(sql: string): boolean {
  const s = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  return /^(?:ALTER|CREATE|DROP|RENAME|EXCHANGE|ATTACH|DETACH|REPLACE)\b/i.test(s);
}
