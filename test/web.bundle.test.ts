// chwire/web as a browser bundle: esbuild bundles the built entry for `--platform=browser` (where
// a `node:` import or a Node-only package cannot resolve and fails the build), and the bundle's
// minified + gzipped size stays within the budget the README quotes (measured 64.1 kB once the
// session's features were merged (50.9 kB before observability and the request surface), plus 20 %). A control shows the same build of the Node entry fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Bytes, minified and gzipped (level 9). Measured at 64 071 B with every feature merged; budget = that + 20 %. */
const BUDGET = 77_000;

async function bundle(entry: string, minify: boolean): Promise<{ code: string; inputs: string[] }> {
  const r = await build({
    entryPoints: [join(ROOT, entry)], bundle: true, minify, platform: 'browser', format: 'esm', target: 'es2022',
    // The optional peer @opentelemetry/api (platform-neutral) is the user's, loaded only for `tracing: true`.
    external: ['@opentelemetry/api'], write: false, metafile: true, logLevel: 'silent',
  });
  return { code: r.outputFiles[0]!.text, inputs: Object.keys(r.metafile.inputs) };
}

test('chwire/web bundles for the browser with nothing from Node and within its size budget', async () => {
  const { code, inputs } = await bundle('dist/src/web.js', true);
  assert.deepEqual(inputs.filter((i) => i.startsWith('node:') || i.includes('node_modules')), [], 'Node modules or packages in the bundle');
  assert.ok(inputs.some((i) => i.endsWith('dist/src/transport/fetch.js')) && inputs.some((i) => i.endsWith('dist/src/client/client.js')), 'the bundle must hold the client and the fetch transport');
  const gz = gzipSync(code, { level: 9 }).length;
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const quoted = /chwire\/web[^\n]*?(\d+(?:\.\d+)?) kB minified and gzipped/.exec(readme);
  assert.ok(quoted !== null, 'README must quote the size of the chwire/web bundle ("… NN.N kB minified and gzipped")');
  assert.ok(gz <= BUDGET, `chwire/web bundle is ${gz} B minified+gzipped, over its budget of ${BUDGET} B`);
  // The README's figure stays current: within 10 % of what was just measured.
  assert.ok(Math.abs(Number(quoted[1]) * 1000 - gz) / gz < 0.1, `README quotes ${quoted[1]} kB, measured ${(gz / 1000).toFixed(1)} kB`);
});

test('the checker can fail: the Node entry does not bundle for the browser', async () => {
  await assert.rejects(bundle('dist/src/index.js', false), (e: Error) => /node:/.test(e.message));
});
