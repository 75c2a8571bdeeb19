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

export const REAL_URL2 = process.env['CHWIRE_TEST_HTTP_URL2'];

/** `skip` for tests over two real servers (.ci/run starts a second one for CHWIRE_TEST_HTTP_URL2). */
export const SKIP_REAL2: string | false = SKIP_REAL !== false ? SKIP_REAL
  : REAL_URL2 === undefined || REAL_URL2 === '' ? 'CHWIRE_TEST_HTTP_URL2 is not set: .ci/run starts a second server for it' : false;

export interface RecordingProxy {
  readonly url: string;
  /** `METHOD path` of every HTTP request that went through, in order. */
  readonly requests: string[];
  /** The query_id of each request that had one, in order. */
  readonly queryIds: string[];
  close(): Promise<void>;
}

/**
 * A TCP proxy that records each HTTP request line passing through and, when `idleResetMs` is set,
 * resets (TCP RST) any connection silent for that long in both directions: the middlebox that cuts
 * a long-running query's connection while the server still runs the query.
 */
export async function recordingProxy(target: string, idleResetMs?: number): Promise<RecordingProxy> {
  const t = new URL(target);
  const open = new Set<net.Socket>();
  const requests: string[] = [];
  const queryIds: string[] = [];
  const server = net.createServer((client) => {
    open.add(client);
    const upstream = net.connect(Number(t.port), t.hostname);
    let text = '';
    let idle: NodeJS.Timeout | undefined;
    const touch = (): void => {
      if (idleResetMs === undefined) return;
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => { upstream.destroy(); client.resetAndDestroy(); }, idleResetMs);
    };
    touch();
    client.on('data', (d) => {
      touch();
      text = (text + d.toString('latin1')).slice(-65536);
      for (let m = /(GET|POST) (\S+) HTTP\/1\.1\r\n/.exec(text); m !== null; m = /(GET|POST) (\S+) HTTP\/1\.1\r\n/.exec(text)) {
        requests.push(`${m[1]} ${m[2]}`);
        const id = new URL(m[2]!, 'http://x').searchParams.get('query_id');
        if (id !== null) queryIds.push(id);
        text = text.slice(m.index + m[0].length);
      }
      upstream.write(d);
    });
    upstream.on('data', (d) => { touch(); client.write(d); });
    const end = (): void => { if (idle !== undefined) clearTimeout(idle); open.delete(client); client.destroy(); upstream.destroy(); };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests, queryIds,
    close: () => new Promise<void>((r) => { for (const c of open) c.destroy(); server.close(() => r()); }),
  };
}
