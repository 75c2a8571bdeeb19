// The smoke suite inside Cloudflare's workerd (bundled by run.ts, run through miniflare): a
// request `/?url=<server>&tag=<tag>` runs it with chwire/web and answers its result as JSON.
import * as web from '../../src/web.js';
import * as compat from '../../src/compat-web.js';
import { runSmoke, type SmokeEntry } from './smoke.js';

/**
 * workerd's fetch sends no Accept-Encoding of its own (so a server answers it uncompressed), and
 * decodes what comes in a coding its request asked for, showing the Content-Encoding: the run's
 * requests carry one, as a Worker's code (or a proxy on the way) may set, so that workerd's
 * decoders are what chwire/web reads through.
 */
const withAcceptEncoding = (input: string, init: RequestInit): Promise<Response> =>
  fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'Accept-Encoding': 'gzip, br' } });

export default {
  async fetch(request: Request): Promise<Response> {
    const u = new URL(request.url);
    const result = await runSmoke({ ...web, compat } as unknown as SmokeEntry, u.searchParams.get('url')!, u.searchParams.get('tag')!, withAcceptEncoding);
    return new Response(JSON.stringify(result), { headers: { 'Content-Type': 'application/json' } });
  },
};
