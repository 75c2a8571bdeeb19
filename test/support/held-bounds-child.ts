// The client side of test/hostile.held-bounds.test.ts, run in a child process with a small V8 heap
// (--max-old-space-size): one buffered call against the hostile server at argv[2] with the
// client's default bounds, then one line of JSON on stdout (the error's class and bound, the
// peak RSS). A crash of the heap is the child's exit code 134, which the test sees.
import { createClient, fetchColumns } from '../../src/index.js';

const [url, call] = process.argv.slice(2) as [string, string];
const client = createClient({ url });
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
const out: Record<string, unknown> = { call };
try {
  if (call === 'fetchColumns') await fetchColumns(client, 'SELECT n');
  else if (call === 'text') await client.streamRaw('SELECT s', { format: 'JSONEachRow' }).text();
  else await client.streamRaw('SELECT s', { format: 'JSONEachRow' }).json();
  out['error'] = 'none';
} catch (e) {
  const err = e as { name?: string; limit?: unknown; bound?: unknown; message?: string };
  Object.assign(out, { error: err.name, limit: err.limit, bound: err.bound, message: err.message?.slice(0, 300) });
}
clearInterval(sampler);
out['peakRss'] = Math.max(peak, process.memoryUsage().rss);
await client.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
