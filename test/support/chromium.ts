// Headless Chromium for the browser tests: Debian's /usr/bin/chromium (CHWIRE_CHROMIUM) driven by
// playwright-core from .ci/runtimes (npm run runtimes), and a loopback page server that serves the
// page's own files and forwards every other path to a ClickHouse server, so page and server share
// an origin (18.16 answers no CORS preflight: test/web.cors.test.ts). The server records the URL and
// headers of each request it forwarded (which client sent it shows there). Only 127.0.0.1.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CHROMIUM = process.env['CHWIRE_CHROMIUM'] ?? '/usr/bin/chromium';
const runtimes = createRequire(join(ROOT, '.ci', 'runtimes', 'package.json'));
const hasPlaywright = ((): boolean => { try { runtimes.resolve('playwright-core'); return true; } catch { return false; } })();
/** Why a Chromium test cannot run here, or false. */
export const SKIP_CHROMIUM: string | false = !existsSync(CHROMIUM) ? `${CHROMIUM} is missing (apt-get install -y chromium)`
  : !hasPlaywright ? 'playwright-core is not installed (npm run runtimes)' : false;

export interface Seen { url: string; headers: http.IncomingHttpHeaders }
export interface Page { goto(u: string): Promise<unknown>; waitForFunction(f: string, a?: unknown, o?: { timeout: number }): Promise<unknown>; evaluate<T>(f: string): Promise<T>; on(e: 'console', f: (m: { text(): string }) => void): void; on(e: 'pageerror', f: (e: Error) => void): void; close(): Promise<void> }
export interface Browser { newPage(): Promise<Page>; close(): Promise<void> }

/** Launches headless Chromium (no sandbox, no background traffic). */
export async function launchChromium(): Promise<Browser> {
  type Chromium = { launch(o: Record<string, unknown>): Promise<Browser> };
  const pw = (await import(pathToFileURL(runtimes.resolve('playwright-core')).href)) as { chromium?: Chromium; default?: { chromium: Chromium } };
  return (pw.chromium ?? pw.default!.chromium).launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * A page server on 127.0.0.1: `/<name>.html` loads `/<name>.js` (the bundled `js`) as a module; every
 * other path but /favicon.ico is forwarded to `backend` and recorded in `seen`.
 */
export async function pageServer(backend: string, name: string, js: string): Promise<{ origin: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const to = new URL(backend);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === `/${name}.html`) { res.setHeader('Content-Type', 'text/html'); res.end(`<!doctype html><meta charset="utf-8"><title>${name}</title><script type="module" src="/${name}.js"></script>`); return; }
    if (path === `/${name}.js`) { res.setHeader('Content-Type', 'text/javascript'); res.end(js); return; }
    if (path === '/favicon.ico') { res.statusCode = 404; res.end(); return; }
    seen.push({ url: req.url ?? '', headers: { ...req.headers } });
    const headers = { ...req.headers, host: to.host };
    const up = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
      ur.on('error', () => res.destroy());
    });
    up.on('error', () => res.destroy());
    // The page gave up (abort): the forwarded request is dropped too.
    res.on('close', () => { if (!res.writableFinished) up.destroy(); });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => { server.closeAllConnections(); return new Promise<void>((r) => server.close(() => r())); },
  };
}
