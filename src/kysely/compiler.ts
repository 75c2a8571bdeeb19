// Kysely's query compiler for ClickHouse. Values never become SQL text by Kysely's rules: each
// one is a typed `{pN:Type}` query parameter (the type from the value, param-type.ts) or, for
// servers without parameters (before 19.11, such as 18.16), chwire's sqlLiteral of it (a CAST of an
// escaped literal, exact for every value). String literals Kysely writes itself (`sql.lit`, immediate
// values) and identifiers are escaped by ClickHouse's rules (backslash and quote escaped, where
// Kysely would only double the quote: `x\' OR 1=1` stays a string). LIMIT and OFFSET values are
// checked integers. UPDATE and DELETE compile to ClickHouse's `ALTER TABLE … UPDATE/DELETE WHERE`
// mutations (a WHERE is required); what ClickHouse has no form for is refused by name.
// Invariant: nothing of a value reaches the SQL text except through formatQueryParam's parameter
// (sent apart from the SQL) or sqlLiteral.
import { DefaultQueryCompiler, type DeleteQueryNode, type IdentifierNode, type LimitNode, type OffsetNode, type UpdateQueryNode, ValueNode } from 'kysely';
import { ChwireConfigError } from '../errors.js';
import { sqlInteger, sqlLiteral } from '../client/sql/literal.js';
import { quoteBackticked, quoteString } from '../types/quote.js';
import type { QueryParamValue } from '../client/sql/params.js';
import { typeOfValue } from './param-type.js';
import { ChTyped } from './values.js';

export interface CompilerMode {
  /** The server takes `{name:Type}` parameters (19.11+); else values are written as sqlLiteral. */
  readonly params: boolean;
  /** The server has DateTime64 (20.1+). */
  readonly dateTime64: boolean;
}

/** Names of the parameters a compiled query carries: `p0`, `p1`, … in order. */
export function paramName(i: number): string {
  return `p${i}`;
}

function escapeBackticked(name: string): string {
  return quoteBackticked(name).slice(1, -1);
}

export class ChwireQueryCompiler extends DefaultQueryCompiler {
  constructor(private readonly mode: CompilerMode) {
    super();
  }

  protected override appendValue(value: unknown): void {
    if (value === null || value === undefined) {
      if (value === undefined) throw new ChwireConfigError(`chwire/kysely: parameter ${paramName(this.numParameters)} is undefined`);
      this.append('NULL');
      return;
    }
    const at = paramName(this.numParameters);
    const type = typeOfValue(value, at, this.mode.dateTime64);
    const raw = (value instanceof ChTyped ? value.value : value) as QueryParamValue;
    if (!this.mode.params) {
      this.append(sqlLiteral(raw, type));
      return;
    }
    this.addParameter(raw);
    this.append(`{${at}:${type}}`);
  }

  protected override getCurrentParameterPlaceholder(): string {
    throw new ChwireConfigError('chwire/kysely: a positional parameter placeholder was asked for; values go through typed {name:Type} parameters');
  }

  protected override getLeftIdentifierWrapper(): string { return '`'; }
  protected override getRightIdentifierWrapper(): string { return '`'; }

  protected override visitIdentifier(node: IdentifierNode): void {
    this.append(`\`${escapeBackticked(node.name)}\``);
  }

  protected override sanitizeIdentifier(identifier: string): string {
    return escapeBackticked(identifier);
  }

  protected override appendStringLiteral(value: string): void {
    this.append(quoteString(value));
  }

  protected override sanitizeStringLiteral(value: string): string {
    return quoteString(value).slice(1, -1);
  }

  protected override visitLimit(node: LimitNode): void {
    this.append('limit ');
    this.appendCount(node.limit, 'limit');
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append('offset ');
    this.appendCount(node.offset, 'offset');
  }

  private appendCount(node: LimitNode['limit'], what: string): void {
    if (ValueNode.is(node)) {
      const v = node.value;
      if (typeof v !== 'number' && typeof v !== 'bigint' && typeof v !== 'string') throw new ChwireConfigError(`chwire/kysely: the ${what} is not an integer`);
      this.append(sqlInteger(v));
      return;
    }
    this.visitNode(node);
  }

  protected override visitUpdateQuery(node: UpdateQueryNode): void {
    if (this.parentNode !== undefined) throw new ChwireConfigError('chwire/kysely: an UPDATE inside another query has no ClickHouse form');
    if (node.from !== undefined || node.joins !== undefined || node.returning !== undefined || node.with !== undefined || node.top !== undefined || node.output !== undefined) {
      throw new ChwireConfigError('chwire/kysely: UPDATE … FROM / JOIN / RETURNING / WITH / TOP / OUTPUT have no ClickHouse form (ALTER TABLE … UPDATE takes SET and WHERE only)');
    }
    if (node.table === undefined || node.updates === undefined) throw new ChwireConfigError('chwire/kysely: an UPDATE needs a table and SET');
    if (node.where === undefined) {
      throw new ChwireConfigError('chwire/kysely: updateTable without where: ClickHouse\'s ALTER TABLE … UPDATE needs a WHERE (add .where(sql`1`, \'=\', 1) to update every row)');
    }
    this.append('alter table ');
    this.visitNode(node.table);
    this.append(' update ');
    this.compileList(node.updates);
    this.append(' ');
    this.visitNode(node.where);
  }

  protected override visitDeleteQuery(node: DeleteQueryNode): void {
    if (this.parentNode !== undefined) throw new ChwireConfigError('chwire/kysely: a DELETE inside another query has no ClickHouse form');
    if (node.using !== undefined || node.joins !== undefined || node.returning !== undefined || node.with !== undefined || node.top !== undefined || node.output !== undefined || node.limit !== undefined || node.orderBy !== undefined) {
      throw new ChwireConfigError('chwire/kysely: DELETE … USING / JOIN / RETURNING / WITH / ORDER BY / LIMIT have no ClickHouse form (ALTER TABLE … DELETE takes WHERE only)');
    }
    if (node.where === undefined) {
      throw new ChwireConfigError('chwire/kysely: deleteFrom without where: ClickHouse\'s ALTER TABLE … DELETE needs a WHERE (TRUNCATE TABLE empties a table)');
    }
    if (node.from.froms.length !== 1) throw new ChwireConfigError('chwire/kysely: a DELETE from several tables has no ClickHouse form');
    this.append('alter table ');
    this.visitNode(node.from.froms[0]!);
    this.append(' delete ');
    this.visitNode(node.where);
  }
}
