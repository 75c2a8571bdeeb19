// The Kysely driver over a chwire client: one connection object for every query (the client pools
// its own sockets), the server's mode (parameters, DateTime64) learnt once from its version, and no
// transactions (ClickHouse has none: begin/commit/rollback are refused, never run as no-ops).
import type { DatabaseConnection, Driver } from 'kysely';
import { ChwireConfigError } from '../errors.js';
import type { CompilerMode } from './compiler.js';
import { ChwireConnection, type KyselyClient } from './connection.js';

function atLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map((x) => Number.parseInt(x, 10));
  return a > major || (a === major && b >= minor);
}

export class ChwireDriver implements Driver {
  private modePromise: Promise<CompilerMode> | undefined;
  private readonly connection: ChwireConnection;

  constructor(private readonly client: KyselyClient) {
    this.connection = new ChwireConnection(client, () => this.mode());
  }

  /** Parameters need 19.11, DateTime64 20.1 (asked once; a failed ask is asked again). */
  mode(): Promise<CompilerMode> {
    this.modePromise ??= this.client.serverVersion().then(
      (v) => ({ params: atLeast(v, 19, 11), dateTime64: atLeast(v, 20, 1) }),
      (e: unknown) => { this.modePromise = undefined; throw e; },
    );
    return this.modePromise;
  }

  async init(): Promise<void> { await this.mode(); }
  async acquireConnection(): Promise<DatabaseConnection> { return this.connection; }
  async beginTransaction(): Promise<void> { throw new ChwireConfigError('chwire/kysely: ClickHouse has no transactions (begin/commit/rollback)'); }
  async commitTransaction(): Promise<void> { throw new ChwireConfigError('chwire/kysely: ClickHouse has no transactions (begin/commit/rollback)'); }
  async rollbackTransaction(): Promise<void> { throw new ChwireConfigError('chwire/kysely: ClickHouse has no transactions (begin/commit/rollback)'); }
  async releaseConnection(): Promise<void> { /* one shared connection */ }
  /** The client belongs to the caller, who closes it. */
  async destroy(): Promise<void> { /* nothing of its own to close */ }
}
