// A response body read as plainly as Node allows: POST the query over a keep-alive node:http
// agent, collect the chunks, copy them into one Uint8Array. The floor an HTTP client cannot beat,
// used as the "plain copy" baseline of the end-to-end columnar read.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function httpBody(url: string, sql: string, settings: Record<string, string | number> = {}): Promise<Uint8Array> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(settings)) u.searchParams.set(k, String(v));
  return new Promise((resolve, reject) => {
    const req = http.request(u, { method: 'POST', agent }, (res) => {
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (c: Buffer) => { chunks.push(c); total += c.length; });
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) {
          reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 500)}`));
          return;
        }
        const out = new Uint8Array(total);
        let p = 0;
        for (const c of chunks) { out.set(c, p); p += c.length; }
        resolve(out);
      });
    });
    req.on('error', reject);
    req.end(sql);
  });
}

/** Close the agent's idle sockets (so the process can exit). */
export function closeHttpBodyAgent(): void {
  agent.destroy();
}
