// Runs the smoke suite in a command-line runtime (Bun, Deno, Node) and prints its result as one
// JSON line. Arguments: <entry: node|web> <server url> <tag>. Uses no Node API itself (Deno).
import { runSmoke, type SmokeEntry } from './smoke.js';

const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const args = g.Deno !== undefined ? g.Deno.args : g.process!.argv.slice(2);
const [entry, url, tag] = args as [string, string, string];
const mod = (entry === 'node'
  ? { ...await import('../../src/index.js'), compat: await import('../../src/compat.js') }
  : { ...await import('../../src/web.js'), compat: await import('../../src/compat-web.js') }) as unknown as SmokeEntry;
const result = await runSmoke(mod, url, tag);
console.log(`SMOKE ${JSON.stringify(result)}`);
