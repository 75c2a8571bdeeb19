// A small forward HTTP proxy for tests: absolute-form requests (`POST http://host:port/… HTTP/1.1`)
// are forwarded to their origin, CONNECT opens a TCP tunnel. It counts both, records every
// request line and Proxy-Authorization it saw, and answers 407 when credentials are required and
// missing or wrong (RFC 9110 §11.7.1). Real sockets, no mocks: the client under test cannot tell it
// from a squid.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface ForwardProxy {
  readonly url: string;
  readonly port: number;
  /** Absolute-form requests forwarded. */
  readonly forwarded: number;
  /** CONNECT tunnels opened. */
  readonly tunnels: number;
  /** Every request line (`METHOD target`) the proxy received, in order. */
  readonly lines: string[];
  /** Proxy-Authorization values received (undefined when absent). */
  readonly authorizations: (string | undefined)[];
  /** Every byte the proxy received from clients on plain (non-tunnel) requests, headers included, as latin1 text. */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(opts: { user?: string; password?: string } = {}): Promise<ForwardProxy> {
  const expected = opts.user === undefined ? undefined : `Basic ${Buffer.from(`${opts.user}:${opts.password ?? ''}`).toString('base64')}`;
  let forwarded = 0;
  let tunnels = 0;
  const lines: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const seen: string[] = [];
  const sockets = new Set<Socket>();

  const authorized = (h: http.IncomingHttpHeaders): boolean => {
    const a = h['proxy-authorization'];
    authorizations.push(a);
    return expected === undefined || a === expected;
  };

  const server = http.createServer((req, res) => {
    lines.push(`${req.method} ${req.url}`);
    seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}`);
    if (!authorized(req.headers)) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test"' });
      res.end('proxy authentication required\n');
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400);
      res.end('absolute-form request expected\n');
      return;
    }
    forwarded++;
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
      ur.on('error', () => res.destroy());
    });
    up.on('error', () => { if (!res.headersSent) { res.writeHead(502); res.end('bad gateway\n'); } else res.destroy(); });
    req.pipe(up);
  });
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    lines.push(`CONNECT ${req.url}`);
    if (!authorized(req.headers)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
    const up = net.connect(port, host.replace(/^\[|\]$/g, ''), () => {
      tunnels++;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get forwarded() { return forwarded; },
    get tunnels() { return tunnels; },
    lines, authorizations, seen,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}
