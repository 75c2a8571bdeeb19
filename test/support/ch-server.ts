// The real ClickHouse server of the real-server tests (test/server.*.test.ts): Debian's
// clickhouse-server 18.16 started by .ci/run with .ci/clickhouse-config.sh, found through
// CHWIRE_TEST_HTTP_URL. Also a TCP proxy that can make pooled connections stale on demand.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient, type Client, type ClientOptions } from '../../src/index.js';

export const REAL_URL = process.env['CHWIRE_TEST_HTTP_URL'];

/** `skip` option for node:test: a clear reason when no server is configured. */
export const SKIP_REAL: string | false = REAL_URL === undefined || REAL_URL === ''
  ? 'CHWIRE_TEST_HTTP_URL is not set: the real-server tests run under .ci/run, which starts Debian clickhouse-server'
  : false;

/** The password-protected user that .ci/clickhouse-config.sh creates. */
export const AUTH_USER = 'chwire';
export const AUTH_PASSWORD = 'chwire-secret';

export function realClient(over: ClientOptions = {}): Client {
  return createClient({ url: REAL_URL, requestTimeout: 60_000, ...over });
}

/** A table name no other test run uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
}

export interface StaleProxy {
  readonly url: string;
  /** Connections accepted from the client so far. */
  readonly accepted: number;
  /**
   * From now on, the next bytes a client sends on any currently open connection are answered
   * with a TCP reset, as if the server had closed the idle socket just as the client reused it.
   */
  staleAll(): void;
  close(): Promise<void>;
}

export async function staleProxy(target: string): Promise<StaleProxy> {
  const t = new URL(target);
  const open = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    open.add(client);
    const upstream = net.connect(Number(t.port), t.hostname);
    const state = { stale: false };
    (client as net.Socket & { chwireState?: { stale: boolean } }).chwireState = state;
    client.on('data', (d) => {
      if (state.stale) { upstream.destroy(); client.resetAndDestroy(); return; }
      upstream.write(d);
    });
    upstream.on('data', (d) => client.write(d));
    const end = (): void => { open.delete(client); client.destroy(); upstream.destroy(); };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get accepted() { return accepted; },
    staleAll: () => { for (const c of open) (c as net.Socket & { chwireState?: { stale: boolean } }).chwireState!.stale = true; },
    close: () => new Promise<void>((r) => { for (const c of open) c.destroy(); server.close(() => r()); }),
  };
}

/**
 * A full garbage collection, so that heap measurements count live objects only (works without
 * --expose-gc: the flag is set at run time and `gc` taken from a fresh context).
 */
export async function collectGarbage(): Promise<void> {
  const g = (globalThis as { gc?: () => void }).gc ?? (await gcFromFlag());
  g();
}

let cachedGc: (() => void) | undefined;
async function gcFromFlag(): Promise<() => void> {
  if (cachedGc !== undefined) return cachedGc;
  const v8 = await import('node:v8');
  const vm = await import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  cachedGc = vm.runInNewContext('gc') as () => void;
  return cachedGc;
}
