// Live progress against the real server (Debian 18.16, which sends no progress headers): a query
// that computes for seconds before its first row reports growing readRows while it runs, from the
// system.processes poll; an INSERT … SELECT run by execute() reports writtenRows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Progress } from '../src/client/observe/progress.js';
import { realClient, SKIP_REAL, uniqueName } from './support/ch-server.js';

test('a multi-second query reports growing readRows before its first row', { skip: SKIP_REAL }, async () => {
  const c = realClient();
  const events: { at: number; p: Progress }[] = [];
  const t0 = performance.now();
  let firstRowAt = Infinity;
  const s = c.stream<{ n: bigint }>('SELECT count() AS n FROM numbers(150000000) WHERE NOT ignore(sipHash64(number))', {
    progressInterval: 200,
    onProgress: (p) => events.push({ at: performance.now() - t0, p }),
  });
  let n = 0n;
  for await (const r of s) {
    if (firstRowAt === Infinity) firstRowAt = performance.now() - t0;
    n = BigInt(r.n);
  }
  await c.close();
  assert.equal(n, 150000000n);
  const before = events.filter((e) => e.at < firstRowAt);
  assert.ok(before.length >= 2, `${before.length} events before the first row (of ${events.length})`);
  const reads = before.map((e) => e.p.readRows);
  assert.ok(reads[0]! > 0 && reads[reads.length - 1]! > reads[0]!, `readRows grows: ${reads.join(', ')}`);
  for (let i = 1; i < events.length; i++) assert.ok(events[i]!.p.readRows >= events[i - 1]!.p.readRows, 'monotonic');
  assert.ok(events[events.length - 1]!.p.elapsedNs >= before[before.length - 1]!.p.elapsedNs);
});

test('execute of an INSERT … SELECT reports writtenRows while it runs', { skip: SKIP_REAL }, async () => {
  const c = realClient();
  const t = uniqueName('progress_sink');
  await c.execute(`CREATE TABLE ${t} (x UInt64) ENGINE = Null`);
  try {
    const events: Progress[] = [];
    await c.execute(`INSERT INTO ${t} SELECT sipHash64(number) FROM numbers(100000000)`, { progressInterval: 200, onProgress: (p) => events.push(p) });
    assert.ok(events.length >= 2, `${events.length} events`);
    assert.ok(events.some((p) => p.writtenRows > 0), 'writtenRows reported');
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${t}`);
    await c.close();
  }
});
