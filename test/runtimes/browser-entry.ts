// The smoke suite in a browser page (bundled by run.ts with the browser bundle of chwire/web): the
// page `smoke.html?url=<server>&tag=<tag>` runs it and leaves its result in `window.__smoke`.
import * as web from '../../src/web.js';
import * as compat from '../../src/compat-web.js';
import { runSmoke, type SmokeEntry } from './smoke.js';

const w = globalThis as unknown as { location: { search: string }; __smoke?: unknown };
const q = new URLSearchParams(w.location.search);
runSmoke({ ...web, compat } as unknown as SmokeEntry, q.get('url')!, q.get('tag')!).then(
  (r) => { w.__smoke = r; },
  (e: Error) => { w.__smoke = { error: `${e.name}: ${e.message}` }; },
);
