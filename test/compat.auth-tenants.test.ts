// chwire/compat's per-call `auth` with many tenants (issue 32, item 8): one chwire client per
// credentials, of which only idle ones may be closed. Before, an LRU of 16 closed a client it had
// just handed out: 60 concurrent calls across 30 tenants, 44 failed with "client is closed". Here,
// against the engine-backed loopback server with 30 real users (each its own password, checked
// by the server as ClickHouse does), every call of every tenant must succeed, on chwire/compat
// and chwire/compat/web, with the bodies read after all calls were sent; a wrong password still
// fails; once idle, at most MAX_IDLE clients are kept.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient as createCompat } from '../src/compat.js';
import { createClient as createCompatWeb } from '../src/compat-web.js';
import { MAX_IDLE } from '../src/compat/auth.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const TENANTS = 30;
const users: Record<string, string> = {};
for (let t = 0; t < TENANTS; t++) users[`tenant_${t}`] = `secret-${t}-${t * 7919}`;

const servers: TestServer[] = [];
after(async () => { for (const s of servers) await s.close(); });

for (const [name, make] of [['chwire/compat', createCompat], ['chwire/compat/web', createCompatWeb]] as const) {
  test(`${name}: 60 concurrent calls across 30 tenants (per-call auth) all succeed; bodies read after every call was sent`, async () => {
    const server = await startTestServer({ users });
    servers.push(server);
    const c = make({ url: server.url }) as ReturnType<typeof createCompat>;
    try {
      // Every call is sent first (its result set open, its body unread): 30 tenants' clients are held at once.
      const sets = await Promise.all(Array.from({ length: 60 }, (_, k) => {
        const t = k % TENANTS;
        return c.query({ query: `SELECT ${k} AS k, currentUser() AS u`, format: 'JSONEachRow', auth: { username: `tenant_${t}`, password: users[`tenant_${t}`]! } });
      }).map((p) => p.then((rs) => ({ rs }), (e: unknown) => ({ e }))));
      const failed = sets.filter((s) => 'e' in s).map((s) => String((s as { e: unknown }).e));
      assert.deepEqual(failed, [], `${failed.length} of 60 calls failed`);
      const rows = await Promise.all(sets.map((s) => (s as { rs: { json<T>(): Promise<T[]> } }).rs.json<{ k: number }>()));
      assert.deepEqual(rows.map((r) => Number(r[0]!.k)), Array.from({ length: 60 }, (_, k) => k));
      // The server saw each tenant's own credentials.
      const seen = new Set(server.requests.map((r) => r.headers['x-clickhouse-user']).filter((u) => typeof u === 'string' && u.startsWith('tenant_')));
      assert.equal(seen.size, TENANTS);
      // A second round reuses what is kept and still works for every tenant.
      for (let t = 0; t < TENANTS; t++) {
        const r = await (await c.query({ query: 'SELECT 1 AS one', format: 'JSONEachRow', auth: { username: `tenant_${t}`, password: users[`tenant_${t}`]! } })).json<{ one: number }>();
        assert.equal(Number(r[0]!.one), 1);
      }
      const idle = (c as unknown as { auth: { size: number } }).auth.size;
      assert.ok(idle <= MAX_IDLE, `${idle} idle clients kept`);
      await assert.rejects((async () => (await c.query({ query: 'SELECT 1', auth: { username: 'tenant_0', password: 'wrong' } })).json())(), /Authentication failed/);
    } finally {
      await c.close();
    }
  });
}
