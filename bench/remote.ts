// The real server of the end-to-end benches (bench:client, bench:insert): where it is, whether it
// answers, and what it is. Both clients talk to the same URL with their default pools.
import { createClient as createOfficial, type ClickHouseClient } from '@clickhouse/client';
import { createClient, type Client } from '../src/index.js';

export const BENCH_URL = process.env['CHWIRE_BENCH_URL'] !== undefined && process.env['CHWIRE_BENCH_URL'] !== ''
  ? process.env['CHWIRE_BENCH_URL']
  : 'http://127.0.0.1:8123';

/** The server's /ping answers; otherwise a message saying how to start one. */
export async function serverReachable(): Promise<string | undefined> {
  try {
    const r = await fetch(new URL('/ping', BENCH_URL), { signal: AbortSignal.timeout(3000) });
    if (r.ok) return undefined;
    return `${BENCH_URL}/ping answered HTTP ${r.status}`;
  } catch (e) {
    return `no ClickHouse server at ${BENCH_URL} (${(e as Error).message}); start one with ` +
      '`bench/server.sh start 8123` (Debian clickhouse-server) or set CHWIRE_BENCH_URL';
  }
}

export function chwireClient(): Client {
  return createClient({ url: BENCH_URL, requestTimeout: 300_000 });
}

export function officialClient(): ClickHouseClient {
  return createOfficial({ url: BENCH_URL });
}

/** A table name no concurrent bench run uses. */
export function benchTable(prefix: string): string {
  return `${prefix}_${process.pid}`;
}
