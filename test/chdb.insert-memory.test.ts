// Issue 17 item 14: a streamed insert on chdb:// holds memory bounded by its statements' size, not
// the whole insert's (it used to be one INSERT … FROM INFILE: 643 MB of RSS growth for 2M rows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../src/index.js';

test('chdb://: 2M wide rows from a generator: peak RSS growth well under one statement\'s (643 MB before)', async () => {
  const c = createClient({ url: 'chdb://' });
  const t = `chdbmem_${Math.random().toString(36).slice(2, 8)}`;
  await c.execute(`CREATE TABLE ${t} (id UInt64, a String, b String, x Float64, y Int32, z String) ENGINE = MergeTree ORDER BY id`);
  try {
    const base = process.memoryUsage().rss;
    let peak = base;
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
    const N = 2_000_000;
    function* gen(): Generator<Record<string, unknown>> {
      for (let i = 0; i < N; i++) yield { id: i, a: `host-${i % 97}-abcdefghijklmnop`, b: `path/to/some/resource/${i}`, x: i * 0.5, y: i % 1000, z: `zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz${i % 13}` };
    }
    await c.insert(t, gen());
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    const growthMB = (peak - base) / 1048576;
    assert.equal(await c.fetchValue(`SELECT count() FROM ${t}`), BigInt(N));
    assert.equal(await c.fetchValue(`SELECT uniqExact(id) FROM ${t}`), BigInt(N));
    assert.ok(growthMB < 450, `peak RSS growth ${Math.round(growthMB)} MB (one statement for the whole insert took ~643 MB; per 32 MiB statements ~290 MB)`);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
    await c.close();
  }
});
