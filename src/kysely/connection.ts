// The one Kysely connection of a chwire client: a compiled query → a chwire call. SELECT-like
// queries go through `fetch` (rows with chwire's exact values) or `stream().batches()`, inserts of
// plain values through chwire's Native `insert` (rows encoded against the table's schema, every
// value checked before its block is sent), everything else through `execute`. A query compiled
// before the server was known (or for another server) is compiled again for the server's mode.
// Invariant: every value reaches the server as a typed parameter or a sqlLiteral (compiler.ts) or
// inside a Native block, never as text Kysely wrote.
import { CompiledQuery, type DatabaseConnection, type QueryResult, type RootOperationNode, type InsertQueryNode, type OperationNode } from 'kysely';
import { ChwireConfigError } from '../errors.js';
import type { Client } from '../client/client.js';
import { tokenize } from '../client/sql/sql-tokens.js';
import { quoteBackticked } from '../types/quote.js';
import { ChwireQueryCompiler, paramName, type CompilerMode } from './compiler.js';
import { ChTyped } from './values.js';

/** The calls of a chwire client (Node or chwire/web) the dialect uses. */
export type KyselyClient = Pick<Client, 'fetch' | 'stream' | 'execute' | 'insert' | 'serverVersion'>;

/** What each compiled query was compiled for (queries compiled by other compilers are absent). */
export const COMPILED_FOR = new WeakMap<CompiledQuery, CompilerMode>();

const READS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXISTS', 'EXPLAIN']);

/** A raw statement that answers with rows (its first word, read by the SQL tokenizer). */
function answersRows(sql: string): boolean {
  const first = (tokenize(sql) ?? []).find((t) => t.text !== '(');
  return first !== undefined && READS.has(first.text.toUpperCase());
}

function params(q: CompiledQuery): Record<string, unknown> | undefined {
  if (q.parameters.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  q.parameters.forEach((v, i) => { out[paramName(i)] = v; });
  return out;
}

function identifierText(node: OperationNode | undefined): string | undefined {
  return node !== undefined && node.kind === 'IdentifierNode' ? (node as unknown as { name: string }).name : undefined;
}

/** An insert of plain values as rows for chwire's insert; undefined when it is not one. */
function plainInsert(node: InsertQueryNode): { table: string; rows: Record<string, unknown>[] } | undefined {
  if (node.values === undefined || node.values.kind !== 'ValuesNode' || node.into === undefined || node.columns === undefined) return undefined;
  if (node.returning !== undefined || node.onConflict !== undefined || node.onDuplicateKey !== undefined || node.ignore === true || node.replace === true || node.with !== undefined || node.orAction !== undefined || node.endModifiers !== undefined) {
    throw new ChwireConfigError('chwire/kysely: INSERT … RETURNING / ON CONFLICT / ON DUPLICATE KEY / IGNORE / REPLACE / WITH have no ClickHouse form');
  }
  const t = node.into.table;
  const schema = identifierText(t.schema);
  // Each part back-quoted, so chwire's insert reads the names as given (a table name may hold a dot).
  const table = `${schema !== undefined ? `${quoteBackticked(schema)}.` : ''}${quoteBackticked(t.identifier.name)}`;
  const names = node.columns.map((c) => c.column.name);
  const items = (node.values as unknown as { values: readonly OperationNode[] }).values;
  const rows = items.map((item, r) => {
    const row: Record<string, unknown> = {};
    const cells: readonly unknown[] = item.kind === 'PrimitiveValueListNode'
      ? (item as unknown as { values: readonly unknown[] }).values
      : (item as unknown as { values: readonly OperationNode[] }).values.map((cell, c) => {
        if (cell.kind === 'DefaultInsertValueNode') return DEFAULT;
        if (cell.kind === 'ValueNode') return (cell as unknown as { value: unknown }).value;
        throw new ChwireConfigError(`chwire/kysely: insert values go as a Native insert and must be plain values: column ${JSON.stringify(names[c])} of row ${r} is an expression (${cell.kind}); use insertInto(…).expression(select) or sql\`…\``);
      });
    cells.forEach((v, c) => {
      if (v !== DEFAULT) row[names[c]!] = v instanceof ChTyped ? v.value : v;
    });
    return row;
  });
  return { table, rows };
}

const DEFAULT = Symbol('default');

export class ChwireConnection implements DatabaseConnection {
  constructor(private readonly client: KyselyClient, private readonly mode: () => Promise<CompilerMode>) {}

  private async forServer(q: CompiledQuery): Promise<CompiledQuery> {
    const mode = await this.mode();
    const was = COMPILED_FOR.get(q);
    if (was !== undefined && was.params === mode.params && was.dateTime64 === mode.dateTime64) return q;
    if (q.query.kind === 'RawNode' && was === undefined && q.parameters.length === 0) return q; // CompiledQuery.raw(sql)
    const again = new ChwireQueryCompiler(mode).compileQuery(q.query as RootOperationNode, q.queryId);
    COMPILED_FOR.set(again, mode);
    return again;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const node = compiled.query;
    if (node.kind === 'InsertQueryNode') {
      const insert = plainInsert(node as InsertQueryNode);
      if (insert !== undefined) {
        if (insert.rows.length > 0) await this.client.insert(insert.table, insert.rows);
        return { rows: [], numAffectedRows: BigInt(insert.rows.length) };
      }
    }
    const q = await this.forServer(compiled);
    const p = params(q);
    const reads = node.kind === 'SelectQueryNode' || (node.kind === 'RawNode' && answersRows(q.sql));
    if (reads) return { rows: await this.client.fetch<R>(q.sql, p === undefined ? {} : { params: p as never }) };
    await this.client.execute(q.sql, p === undefined ? {} : { params: p as never });
    return { rows: [] };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const q = await this.forServer(compiled);
    const p = params(q);
    for await (const rows of this.client.stream<R>(q.sql, p === undefined ? {} : { params: p as never }).batches()) yield { rows };
  }
}
