// Property test of host selection and the retry policy against random fault scripts on two
// loopback servers (and sometimes a host that refuses): every call returns the engine's rows or
// fails with a documented error class; a call whose script holds no fault succeeds; no query id
// reaches a server while a request with that id is still being answered there; a write that is not
// idempotent (an insert without a repeatable body, a plain execute) reaches a server at most once;
// a body given as a function arrives whole at every attempt.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fc from 'fast-check';
import { createClient, ChwireConnectionError, ChwireServerError, ChwireTimeoutError } from '../src/index.js';
import { HttpTransport } from '../src/transport/http.js';
import { resolveRetry } from '../src/transport/retry.js';
import { engineJsonRows } from './support/engine.js';
import { startTestServer, type Fault } from './support/test-server.js';

const a = await startTestServer();
const b = await startTestServer();
after(async () => { await a.close(); await b.close(); });

const dead = await (async () => {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
})();

const SQL = 'SELECT toUInt8(number) AS n, toString(number) AS s FROM numbers(50)';
const expected = (await engineJsonRows(SQL)).map(([n, s]) => ({ n: Number(n), s }));

type Step = Fault | 'ok';
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>('ok'),
  fc.constant<Step>({ kind: 'reset' }),
  // Cut after the stale-socket window while the query runs on: a resend must use another id.
  fc.constant<Step>({ kind: 'detach', afterMs: 260, runsMs: 1000 }),
  fc.constantFrom<Step>(
    { kind: 'status', status: 503 }, { kind: 'status', status: 502 }, { kind: 'status', status: 504 },
    { kind: 'status', status: 429, retryAfter: '0' },
    { kind: 'status', status: 500, code: 202 }, // TOO_MANY_SIMULTANEOUS_QUERIES: retried
    { kind: 'status', status: 500, code: 241 }, // MEMORY_LIMIT_EXCEEDED: not retried
  ),
);

type Api = 'fetch' | 'execute' | 'execute-idempotent' | 'insert' | 'insert-repeatable';
interface Op { api: Api; stepsA: Step[]; stepsB: Step[] }
const opArb: fc.Arbitrary<Op> = fc.record({
  api: fc.constantFrom<Api>('fetch', 'execute', 'execute-idempotent', 'insert', 'insert-repeatable'),
  stepsA: fc.array(stepArb, { maxLength: 4 }),
  stepsB: fc.array(stepArb, { maxLength: 4 }),
});

const BODY = ['1\ta\n', '2\tb\n', '3\tc\n'];
let serial = 0;

test('random fault scripts over two hosts: engine rows or a documented error, no query id twice while running, no non-idempotent write twice', { timeout: 180_000 }, async () => {
  await fc.assert(fc.asyncProperty(
    fc.constantFrom('in-order', 'round-robin', 'random') as fc.Arbitrary<'in-order' | 'round-robin' | 'random'>,
    fc.boolean(), fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.array(opArb, { minLength: 1, maxLength: 4 }),
    async (loadBalancing, withDead, attempts, keepAlive, ops) => {
      const urls = withDead ? [dead, a.url, b.url] : [a.url, b.url];
      const retry = { attempts, baseDelay: 1, maxDelay: 5 };
      const c = createClient({ url: urls, loadBalancing, retry, requestTimeout: 10_000, keepAlive, hostCooldown: 50 });
      const t = new HttpTransport({
        urls: urls.map((u) => new URL(u)), username: 'default', password: '', requestTimeout: 10_000, maxOpenConnections: 4, keepAlive,
        idleSocketTtl: 2500, compression: false, loadBalancing, hostCooldown: 50, retry: resolveRetry(retry),
      });
      const running0 = a.sameIdWhileRunning + b.sameIdWhileRunning;
      try {
        for (const op of ops) {
          const marker = `/* rp-${++serial} */`;
          a.script(marker, op.stepsA);
          b.script(marker, op.stepsB);
          const faultFree = [...op.stepsA, ...op.stepsB].every((s) => s === 'ok');
          let failed: unknown;
          try {
            switch (op.api) {
              case 'fetch': {
                const rows = await c.fetch(`${SQL} ${marker}`);
                assert.deepEqual([...rows], expected);
                break;
              }
              case 'execute': await c.execute(`SELECT 1 ${marker}`); break;
              case 'execute-idempotent': await c.execute(`SELECT 1 ${marker}`, { idempotent: true }); break;
              case 'insert': await c.insert(`t ${marker}`, BODY.map((x) => Buffer.from(x)), { format: 'TSV' }); break;
              case 'insert-repeatable': {
                const body = (): AsyncIterable<Uint8Array> => (async function* () { for (const x of BODY) yield Buffer.from(x); })();
                const r = await t.request({ sql: `INSERT INTO t FORMAT TSV ${marker}`, body, idempotent: true, queryId: `rp-${serial}` });
                for await (const _ of r.body) { /* empty */ }
                break;
              }
            }
          } catch (e) {
            failed = e;
            assert.ok(e instanceof ChwireServerError || e instanceof ChwireConnectionError || e instanceof ChwireTimeoutError, `${op.api}: ${String(e)}`);
          }
          if (faultFree) assert.equal(failed, undefined, `${op.api} without faults failed: ${String(failed)}`);
          const sent = [...a.requests, ...b.requests].filter((q) => q.sql.includes(marker));
          if (op.api === 'insert' || op.api === 'execute') assert.ok(sent.length <= 1, `${op.api} reached a server ${sent.length} times`);
          if (op.api.startsWith('insert')) for (const q of sent) assert.equal(q.body.toString(), BODY.join(''), 'the whole body at every attempt');
          // At most `attempts` attempts, each with at most one resend on a stale socket.
          assert.ok(sent.length <= 2 * attempts, `${sent.length} requests for ${attempts} attempts`);
        }
        assert.equal(a.sameIdWhileRunning + b.sameIdWhileRunning, running0, 'a query id sent while a request with it was still being answered');
      } finally {
        await c.close();
        await t.close();
      }
    },
  ), { numRuns: 30 });
});
