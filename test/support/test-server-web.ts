// What the loopback test server needs for chwire/web and the runtime smoke suite, kept apart
// from test-server.ts: Native inserts really stored in the engine (so a runtime in another process
// can read back what it inserted), and the CORS answers a browser page needs (a preflight for the
// X-ClickHouse-* request headers, any origin allowed).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineExec } from './engine.js';

/** The insert settings a server applies to the stored insert (the rest are the transport's). */
const INSERT_SETTINGS = ['insert_deduplication_token', 'min_insert_block_size_rows', 'min_insert_block_size_bytes'];

/**
 * `INSERT INTO t (cols) FORMAT Native` with its body: stored in the engine (through a temporary
 * file), with the request's insert settings (deduplication). True when it was such an insert.
 */
export async function storeNativeInsert(sql: string, body: Uint8Array, params?: URLSearchParams): Promise<boolean> {
  const m = /^\s*(INSERT\s+INTO\s+[\s\S]*?)\s+FORMAT\s+Native\s*$/i.exec(sql);
  if (m === null) return false;
  const dir = await mkdtemp(join(tmpdir(), 'chwire-ts-insert-'));
  try {
    const file = join(dir, 'body.native');
    await writeFile(file, body);
    const settings = INSERT_SETTINGS.flatMap((k) => { const v = params?.get(k); return v == null ? [] : [`${k} = '${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`]; });
    await engineExec(`${m[1]} ${settings.length > 0 ? `SETTINGS ${settings.join(', ')} ` : ''}SELECT * FROM file('${file}', 'Native')`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return true;
}

/**
 * CORS as a ClickHouse server answers when configured per docs/web.md: an OPTIONS preflight gets
 * the allowed methods and headers (`http_options_response`), every response
 * `Access-Control-Allow-Origin: *` (`add_http_cors_header=1` in the user's profile). Like
 * ClickHouse, no X-ClickHouse-* response header is exposed to the page (`exposeAll`: every header
 * is, as a proxy in front may set). Returns true when the request was a preflight (answered).
 */
export function answerCors(req: http.IncomingMessage, res: http.ServerResponse, exposeAll = false): boolean {
  if (req.method === 'OPTIONS') {
    res.statusCode = 204;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'X-ClickHouse-User, X-ClickHouse-Key, Content-Type, Content-Encoding');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (exposeAll) res.setHeader('Access-Control-Expose-Headers', '*');
  return false;
}
