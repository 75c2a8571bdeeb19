// Secrets never leak: every call kind, succeeding and failing (server errors that quote a
// parameter, timeouts, aborts, a refused host, a wrong password), with a password, query
// parameters and inserted values, while everything observable is collected: every log line
// (logLevel debug), every span (name, attributes, events, status), every diagnostics-channel
// context, every error (message, stack, own fields, the whole cause chain) and every URL the
// loopback server saw. None of it may contain a secret. Over HTTP (loopback server answering with
// the engine's bytes, parameters bound by the engine's binder) and over chdb://.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createClient, type Client, type ClientOptions } from '../src/index.js';
import { engineExec } from './support/engine.js';
import { startTestServer } from './support/test-server.js';

const PASSWORD = 'PW-s3cret-Qx81';
const WRONG_PASSWORD = 'PW-wrong-s3cret-Zk22';
const PARAM = 'PARAM-s3cret-Lm93';
const INSERTED = 'INSERT-s3cret-Vb47';
const TOKEN = 'TOKEN-s3cret-Hq58';
const WRONG_TOKEN = 'TOKEN-wrong-s3cret-Pz61';
const SECRETS = [PASSWORD, WRONG_PASSWORD, PARAM, INSERTED, TOKEN, WRONG_TOKEN];

const server = await startTestServer({ user: 'u1', password: PASSWORD });
const tokenServer = await startTestServer({ token: TOKEN });
const TABLE = `secrets_t_${process.pid}`;
await engineExec(`CREATE TABLE IF NOT EXISTS ${TABLE} (id UInt32, s String) ENGINE = Memory`);
after(async () => {
  await server.close();
  await tokenServer.close();
  await engineExec(`DROP TABLE IF EXISTS ${TABLE}`);
});

/** Everything a user could see or ship somewhere, as text. */
const seen: string[] = [];
const show = (x: unknown): string => inspect(x, { depth: 20, showHidden: true, breakLength: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });

const logger = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (...args: unknown[]) => { seen.push(`log ${level}: ${show(args)}`); }]));
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('secrets');
const channel = dc.tracingChannel('chwire:query');
const onEvent = (m: unknown): void => { seen.push(`channel: ${show({ ...(m as object), error: undefined })}`); };
const handlers = { start: onEvent, end: onEvent, asyncStart: onEvent, asyncEnd: onEvent, error: onEvent };
channel.subscribe(handlers);
after(() => channel.unsubscribe(handlers));

function recordError(e: unknown): void {
  const chain = new Set<unknown>();
  for (let cur = e; cur !== undefined && cur !== null && !chain.has(cur); cur = (cur as { cause?: unknown }).cause) {
    chain.add(cur);
    const err = cur as Error;
    seen.push(`error message: ${String(err.message)}`, `error stack: ${String(err.stack)}`, `error: ${show(err)}`);
    for (const k of Object.getOwnPropertyNames(err)) seen.push(`error field ${k}: ${show((err as unknown as Record<string, unknown>)[k])}`);
  }
}

/** Runs a call; its error (expected or not) is recorded, never thrown. Returns whether it failed. */
async function run(what: () => Promise<unknown>): Promise<boolean> {
  try {
    await what();
    return false;
  } catch (e) {
    recordError(e);
    return true;
  }
}

async function drain(it: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of it) { /* consume */ }
}

const observed = (over: ClientOptions): Client => createClient({ logger: logger as never, logLevel: 'debug', tracing: { tracer }, requestTimeout: 5000, ...over });

async function everyCallKind(c: Client, failing: boolean): Promise<void> {
  const params = { p: PARAM };
  const sqlOk = 'SELECT {p:String} AS v, number FROM numbers(3)';
  // A parameter the server cannot use: its error quotes the value (Code 38). (A string for
  // {p:UInt8} is refused by the client before sending: value-check.ts.)
  const sqlBad = 'SELECT {p:Date} AS v';
  const sql = failing ? sqlBad : sqlOk;
  await run(() => c.fetch(sql, { params }));
  await run(() => c.fetchOne(sql, { params }));
  await run(() => c.fetchValue(sql, { params }));
  await run(() => drain(c.stream(sql, { params })));
  await run(() => drain(c.stream(sql, { params }).batches()));
  await run(() => drain(c.streamRaw(sql, { format: 'TSV', params })));
  await run(() => c.fetchColumns(sql, { params }));
  await run(() => c.execute(failing ? 'SELECT throwIf(1, {p:String})' : 'SELECT {p:String}', { params }));
  await run(() => c.insert(TABLE, [{ id: 1, s: INSERTED }, { id: 2, s: `${INSERTED}-2` }]));
  await run(() => c.insert(TABLE, [`{"id":3,"s":"${INSERTED}"}\n`], { format: 'JSONEachRow' }));
  await run(() => c.ping());
}

test('HTTP: no secret in logs, spans, channel contexts, errors or URLs, for every call kind, succeeding and failing', async () => {
  const c = observed({ url: server.url, username: 'u1', password: PASSWORD });
  await everyCallKind(c, false);
  await everyCallKind(c, true);
  // Timeouts and aborts mid-body, with parameters.
  server.fault('/* stall-secret */', { kind: 'stall', at: 0 });
  const t = observed({ url: server.url, username: 'u1', password: PASSWORD, requestTimeout: 300 });
  assert.ok(await run(() => t.fetch('SELECT {p:String} AS v /* stall-secret */', { params: { p: PARAM } })));
  assert.ok(await run(() => drain(t.streamRaw('SELECT {p:String} AS v /* stall-secret */', { format: 'TSV', params: { p: PARAM } }))));
  assert.ok(await run(() => t.execute('SELECT {p:String} /* stall-secret */', { params: { p: PARAM } })));
  await t.close();
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error(`abort reason without secrets`)), 100);
  assert.ok(await run(() => c.fetch('SELECT {p:String} AS v /* stall-secret */', { params: { p: PARAM }, signal: ac.signal })));
  const pre = new AbortController();
  pre.abort();
  assert.ok(await run(() => c.insert(TABLE, [{ id: 1, s: INSERTED }], { signal: pre.signal })));
  await c.close();
  // A wrong password, and a refused host.
  const wrong = observed({ url: server.url, username: 'u1', password: WRONG_PASSWORD });
  assert.ok(await run(() => wrong.fetch('SELECT {p:String}', { params: { p: PARAM } })));
  await run(() => wrong.ping()); // /ping needs no credentials
  await wrong.close();
  const refused = observed({ url: `http://u1:${encodeURIComponent(PASSWORD)}@127.0.0.1:1` });
  assert.ok(await run(() => refused.fetch('SELECT {p:String}', { params: { p: PARAM } })));
  assert.ok(await run(() => refused.insert(TABLE, [{ id: 1, s: INSERTED }])));
  assert.ok(await run(() => refused.ping()));
  await refused.close();

  for (const s of exporter.getFinishedSpans()) seen.push(`span: ${show({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })}`);
  // The URLs the server saw: the password never; parameter values only as the `param_*` the
  // server needs them as (ClickHouse takes them only as URL parameters).
  for (const r of server.requests) {
    const u = new URL(r.url, 'http://x');
    u.searchParams.delete('param_p');
    seen.push(`url: ${decodeURIComponent(u.toString())}`);
  }
  assertClean();
  // The collection is not empty: each kind of evidence was gathered.
  for (const kind of ['log debug', 'log warn', 'span', 'channel', 'error message', 'url']) assert.ok(seen.some((s) => s.startsWith(kind)), `collected ${kind}`);
  assert.ok(seen.some((s) => s.includes('CANNOT_PARSE_DATE')), 'the server error quoting the parameter was provoked');
  assert.ok(seen.some((s) => s.includes('‹param›')), 'and its value was redacted');
});

test('HTTP with an access token (string and function): no token in logs, spans, channel contexts, errors or URLs', async () => {
  seen.length = 0;
  const before = tokenServer.requests.length;
  const c = observed({ url: tokenServer.url, accessToken: TOKEN });
  await everyCallKind(c, false);
  await everyCallKind(c, true);
  await c.close();
  const f = observed({ url: tokenServer.url, accessToken: async () => TOKEN });
  await everyCallKind(f, true);
  await f.close();
  const wrong = observed({ url: tokenServer.url, accessToken: () => WRONG_TOKEN });
  assert.ok(await run(() => wrong.fetch('SELECT {p:String}', { params: { p: PARAM } })));
  assert.ok(await run(() => wrong.insert(TABLE, [{ id: 1, s: INSERTED }])));
  await wrong.close();
  // A token function that fails: the call fails (ChwireConfigError with its error as the cause).
  const failing = observed({ url: tokenServer.url, accessToken: () => { throw new Error('token service down'); } });
  assert.ok(await run(() => failing.fetch('SELECT 1')));
  await failing.close();
  const refused = observed({ url: 'http://127.0.0.1:1', accessToken: TOKEN });
  assert.ok(await run(() => refused.fetch('SELECT {p:String}', { params: { p: PARAM } })));
  await refused.close();
  for (const s of exporter.getFinishedSpans()) seen.push(`span: ${show({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })}`);
  for (const r of tokenServer.requests.slice(before)) {
    const u = new URL(r.url, 'http://x');
    u.searchParams.delete('param_p');
    seen.push(`url: ${decodeURIComponent(u.toString())}`);
  }
  assertClean();
  assert.ok(tokenServer.requests.slice(before).some((r) => r.headers['authorization'] === `Bearer ${TOKEN}`), 'the token was sent (as a header)');
  assert.ok(seen.some((s) => s.includes('access token was not accepted')), 'the wrong token was refused');
});

test('chdb://: no parameter or inserted value in logs, spans, channel contexts or errors', async () => {
  seen.length = 0;
  const c = observed({ url: 'chdb://' });
  await c.execute(`CREATE TABLE IF NOT EXISTS ${TABLE} (id UInt32, s String) ENGINE = Memory`);
  await everyCallKind(c, false);
  await everyCallKind(c, true);
  await c.execute(`DROP TABLE IF EXISTS ${TABLE}`);
  await c.close();
  for (const s of exporter.getFinishedSpans()) seen.push(`span: ${show({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })}`);
  assertClean();
  assert.ok(seen.some((s) => s.includes('‹param›')), 'a server error quoting the parameter was provoked and redacted');
});

function assertClean(): void {
  for (const line of seen) {
    for (const secret of SECRETS) {
      assert.ok(!line.includes(secret) && !line.includes(secret.slice(0, 10)), `secret ${secret} found in: ${line.slice(0, 2000)}`);
    }
  }
}
