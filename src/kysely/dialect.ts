// chwire/kysely's Dialect: `new Kysely<DB>({ dialect: new ChwireDialect({ client }) })` with a
// chwire client (chwire or chwire/web). The compiler it hands Kysely compiles for a server with
// query parameters; the connection compiles a query again for an older server (connection.ts).
import type { DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler, RootOperationNode, CompiledQuery } from 'kysely';
import { ChwireAdapter } from './adapter.js';
import { ChwireQueryCompiler, type CompilerMode } from './compiler.js';
import { COMPILED_FOR, type KyselyClient } from './connection.js';
import { ChwireDriver } from './driver.js';
import { ChwireIntrospector } from './introspector.js';

export interface ChwireDialectConfig {
  /** A chwire client (`createClient` of `chwire` or `chwire/web`); the caller closes it. */
  client: KyselyClient;
}

/** The mode of the compiler Kysely is handed: parameters and DateTime64 (19.11+ / 20.1+ servers). */
const MODERN: CompilerMode = { params: true, dateTime64: true };

class RecordingCompiler extends ChwireQueryCompiler {
  override compileQuery(node: RootOperationNode, queryId: Parameters<ChwireQueryCompiler['compileQuery']>[1]): CompiledQuery {
    const q = super.compileQuery(node, queryId);
    COMPILED_FOR.set(q, MODERN);
    return q;
  }
}

export class ChwireDialect implements Dialect {
  constructor(private readonly config: ChwireDialectConfig) {}
  createDriver(): Driver { return new ChwireDriver(this.config.client); }
  createQueryCompiler(): QueryCompiler { return new RecordingCompiler(MODERN); }
  createAdapter(): DialectAdapter { return new ChwireAdapter(); }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector { return new ChwireIntrospector(db); } // eslint-disable-line @typescript-eslint/no-explicit-any
}
