// The smoke suite inside Cloudflare's workerd (bundled by run.ts, run through miniflare): a
// request `/?url=<server>&tag=<tag>` runs it with chwire/web and answers its result as JSON.
import * as web from '../../src/web.js';
import * as compat from '../../src/compat-web.js';
import { runSmoke, type SmokeEntry } from './smoke.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const u = new URL(request.url);
    const result = await runSmoke({ ...web, compat } as unknown as SmokeEntry, u.searchParams.get('url')!, u.searchParams.get('tag')!);
    return new Response(JSON.stringify(result), { headers: { 'Content-Type': 'application/json' } });
  },
};
