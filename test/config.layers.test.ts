// createClient's options, layer by layer (issue 20): each layer declares the options it checks
// (client/options/config.ts CLIENT_OPTION_KEYS, transport/http-options.ts HTTP_OPTION_KEYS,
// client/observe/options.ts OBSERVE_OPTION_KEYS, plan/options.ts DECODE_OPTION_KEYS), its resolver
// reads exactly those, each once, and together they are ClientOptions: an option is declared where
// it is checked, and none is accepted unchecked. A bad value of every option fails at createClient
// (not at the first query) with a ChwireConfigError naming it. Real resolvers and clients, read
// through a recording Proxy; no request is sent (the URL's port is closed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError, type ClientOptions } from '../src/index.js';
import { createClient as createWebClient, type WebClientOptions } from '../src/web.js';
import { CLIENT_OPTION_KEYS } from '../src/client/options/config.js';
import { HTTP_OPTION_KEYS, resolveHttpOptions } from '../src/transport/http-options.js';
import { OBSERVE_OPTION_KEYS, resolveObserver } from '../src/client/observe/options.js';
import { DECODE_OPTION_KEYS } from '../src/plan/options.js';
import { checkDecodeOptions } from '../src/plan/resolve.js';

const URL_ = 'http://127.0.0.1:1';

// The lists' union is exactly the keys of ClientOptions (checked by the compiler: a key added to
// ClientOptions and to no list, or listed and not an option, fails the build of the tests).
type Listed = (typeof CLIENT_OPTION_KEYS)[number] | (typeof HTTP_OPTION_KEYS)[number] | (typeof OBSERVE_OPTION_KEYS)[number] | (typeof DECODE_OPTION_KEYS)[number];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const listedIsClientOptions: Same<Listed, keyof ClientOptions> = true;

const LAYERS: Readonly<Record<string, readonly string[]>> = {
  client: CLIENT_OPTION_KEYS,
  transport: HTTP_OPTION_KEYS,
  observe: OBSERVE_OPTION_KEYS,
  decode: DECODE_OPTION_KEYS,
};
const ALL = Object.values(LAYERS).flat();

/** `target` behind a Proxy that counts the reads of each string key. */
function recording<T extends object>(target: T): { proxy: T; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const proxy = new Proxy(target, {
    get(t, k, r) {
      if (typeof k === 'string') reads.set(k, (reads.get(k) ?? 0) + 1);
      return Reflect.get(t, k, r) as unknown;
    },
  });
  return { proxy, reads };
}

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

test('the layers\' option lists are disjoint, and their union is ClientOptions', () => {
  assert.equal(listedIsClientOptions, true);
  assert.equal(new Set(ALL).size, ALL.length, `an option is listed by two layers: ${sorted(ALL).join(', ')}`);
});

test('each layer\'s resolver reads exactly the options of its list, each once', () => {
  const http = recording({});
  const h = resolveHttpOptions(http.proxy);
  h.forHttp(false, false);
  h.forEngine();
  assert.deepEqual(sorted(http.reads.keys()), sorted(HTTP_OPTION_KEYS));
  assert.deepEqual([...new Set(http.reads.values())], [1], 'an HTTP option was read more than once');

  const obs = recording({});
  resolveObserver(obs.proxy, undefined);
  assert.deepEqual(sorted(obs.reads.keys()), sorted(OBSERVE_OPTION_KEYS));
  assert.deepEqual([...new Set(obs.reads.values())], [1], 'an observe option was read more than once');

  const dec = recording({});
  checkDecodeOptions(dec.proxy);
  assert.deepEqual(sorted(dec.reads.keys()), sorted(DECODE_OPTION_KEYS));
  assert.deepEqual([...new Set(dec.reads.values())], [1], 'a decode option was read more than once');
});

test('createClient reads exactly the options of the layers\' lists (no option is read outside them)', async () => {
  for (const url of [URL_, 'chdb://']) {
    const { proxy, reads } = recording<ClientOptions>({ url });
    const c = createClient(proxy);
    await c.close();
    assert.deepEqual(sorted(reads.keys()), sorted(ALL), url);
  }
});

test('an option no layer lists is refused by createClient', () => {
  assert.throws(() => createClient({ url: URL_, ...{ keepalive: true } } as ClientOptions), (e: unknown) => e instanceof ChwireConfigError && /unknown client option "keepalive"/.test(e.message));
});

/** A bad value of every option. */
const BAD: Readonly<Record<keyof ClientOptions, unknown>> = {
  url: '',
  username: 5,
  password: 5,
  database: 5,
  settings: 5,
  requestTimeout: -1,
  insertBlockSize: 1.5,
  maxResultBytes: -1,
  maxResultRows: 1.5,
  maxResultBytesCeiling: 0,
  maxResultRowsCeiling: -1,
  callTimeout: -1,
  perCallSettings: 'all',
  accessToken: 5,
  role: 5,
  httpHeaders: 5,
  proxy: 5,
  agent: 5,
  maxOpenConnections: 0,
  keepAlive: 'yes',
  idleSocketTtl: -1,
  compression: 'gzip',
  tls: 5,
  loadBalancing: 'first',
  hostCooldown: -1,
  retry: 5,
  logger: 5,
  logLevel: 'loud',
  tracing: 5,
  progressInterval: -1,
  slowConsumerMs: -1,
  int64: 'long',
  int128: 'long',
  decimal: 'float',
  datetime: 'moment',
  date: 'moment',
  time: 'moment',
  strings: 'text',
  uuid: 'text',
  maps: 'array',
  float32: 'round',
  rows: 'map',
  columns: 5,
};

test('a bad value of every option fails at createClient with a ChwireConfigError naming it', () => {
  assert.deepEqual(sorted(Object.keys(BAD)), sorted(ALL));
  for (const [name, bad] of Object.entries(BAD)) {
    const options = { url: URL_, [name]: bad } as ClientOptions;
    assert.throws(() => createClient(options), (e: unknown) => {
      assert.ok(e instanceof ChwireConfigError, `${name}: ${String(e)}`);
      assert.match(e.message, new RegExp(`\\b${name}\\b`), name);
      return true;
    }, name);
  }
  // Per-column decode options too, for columns no result has shown yet.
  assert.throws(() => createClient({ url: URL_, columns: { n: { int64: 'long' as 'string' } } }), /decode option int64 in options\.columns\["n"\] must be one of/);
});

test('chwire/web: a bad value of every option it takes fails at createClient with a ChwireConfigError naming it', () => {
  const nodeOnly = new Set(['tls', 'agent', 'proxy', 'maxOpenConnections', 'keepAlive', 'idleSocketTtl']);
  for (const [name, bad] of Object.entries(BAD)) {
    const options = { url: URL_, [name]: bad } as WebClientOptions;
    assert.throws(() => createWebClient(options), (e: unknown) => {
      assert.ok(e instanceof ChwireConfigError, `${name}: ${String(e)}`);
      assert.match(e.message, new RegExp(`\\b${name}\\b`), name);
      if (nodeOnly.has(name)) assert.match(e.message, /not available in chwire\/web/, name);
      return true;
    }, name);
  }
});
