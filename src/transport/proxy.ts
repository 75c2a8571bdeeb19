// Requests through a forward HTTP proxy (`proxy: 'http://[user:pass@]host:port'`): a plain-HTTP
// server is asked in absolute form (`POST http://server:8123/?… HTTP/1.1` sent to the proxy); an
// https server through a CONNECT tunnel, with TLS to the server inside it (the proxy sees only
// ciphertext). The pools stay the transport's: for https the agent's connections are tunnels.
// Invariants: the proxy's credentials leave only as a Proxy-Authorization header (to the proxy,
// never inside the tunnel), and never appear in a URL, a message or an error's cause.
import http from 'node:http';
import type https from 'node:https';
import type tls from 'node:tls';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { ChwireConfigError } from '../errors.js';
import type { ProxyConfig } from './proxy-url.js';
import { lazyBuiltin } from './node-builtin.js';

// node:tls only when a tunnel to an https server is opened.
const tlsModule = lazyBuiltin<typeof tls>('node:tls');

/** The host, port and path to put in a request to `server` (the proxy's, and an absolute URL, for plain HTTP through it). */
export function requestTarget(server: URL, path: string, proxy: ProxyConfig | undefined): { hostname: string; port: number | string; path: string; headers: Record<string, string> } {
  const hostname = server.hostname.replace(/^\[|\]$/g, '');
  const port = server.port || (server.protocol === 'https:' ? 443 : 80);
  if (proxy === undefined || server.protocol === 'https:') return { hostname, port, path, headers: {} };
  const headers: Record<string, string> = { Host: server.host };
  if (proxy.authorization !== undefined) headers['Proxy-Authorization'] = proxy.authorization;
  return { hostname: proxy.hostname, port: proxy.port, path: `${server.protocol}//${server.host}${path}`, headers };
}

/** A proxy's refusal of a plain-HTTP request (407, or a 502/504 it made itself), as a message; undefined otherwise. */
export function proxyRefusal(proxy: ProxyConfig | undefined, status: number | undefined): string | undefined {
  if (proxy === undefined) return undefined;
  if (status === 407) return `proxy ${proxy.where} refused the request: 407 Proxy Authentication Required (${proxy.authorization === undefined ? 'no credentials in the proxy URL' : 'credentials rejected'})`;
  return undefined;
}

type ConnectCallback = (err: Error | null, socket?: Duplex) => void;

/**
 * Makes an https.Agent open each connection as a CONNECT tunnel through the proxy, then TLS to the
 * server inside it with the agent's TLS options (CA, client certificate, servername). Node's Agent
 * accepts an asynchronous createConnection that answers through its callback.
 */
export function tunnelThrough(agent: https.Agent, proxy: ProxyConfig): https.Agent {
  (agent as unknown as { createConnection: (o: tls.ConnectionOptions & { host?: string; port?: number }, cb: ConnectCallback) => undefined }).createConnection = (options, cb) => {
    const host = String(options.host ?? 'localhost');
    const target = `${net.isIPv6(host) ? `[${host}]` : host}:${options.port ?? 443}`;
    const headers: Record<string, string> = { Host: target };
    if (proxy.authorization !== undefined) headers['Proxy-Authorization'] = proxy.authorization;
    const req = http.request({ hostname: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target, headers, agent: false });
    let done = false;
    const finish = (err: Error | null, socket?: Duplex): void => {
      if (done) return;
      done = true;
      cb(err, socket);
    };
    req.once('connect', (res, socket, head) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        const what = res.statusCode === 407 ? ` (Proxy Authentication Required: ${proxy.authorization === undefined ? 'no credentials in the proxy URL' : 'credentials rejected'})` : '';
        finish(new Error(`proxy ${proxy.where} refused the tunnel to ${target}: HTTP ${res.statusCode ?? '?'}${what}`));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      const servername = options.servername !== undefined && options.servername !== '' ? options.servername : net.isIP(host) === 0 ? host : undefined;
      const secure = tlsModule().connect({ ...options, host: undefined, port: undefined, path: undefined, socket, servername } as tls.ConnectionOptions);
      finish(null, secure);
    });
    req.once('error', (e: Error & { code?: string }) => {
      // The proxy's own address in the message, never its credentials (they are only in the header).
      const err = new Error(`cannot reach proxy ${proxy.where}: ${e.message}`) as Error & { code?: string };
      if (e.code !== undefined) err.code = e.code;
      finish(err);
    });
    req.end();
    return undefined;
  };
  return agent;
}

/**
 * Validates the agent option: an http.Agent (https.Agent is one) whose protocol fits every URL
 * (node:http refuses an http.Agent for an https: request, and the reverse).
 */
export function checkAgent(agent: unknown, urls: readonly URL[]): http.Agent | undefined {
  if (agent === undefined) return undefined;
  if (!(agent instanceof http.Agent)) throw new ChwireConfigError('option agent must be an http.Agent or https.Agent');
  const protocol = (agent as { protocol?: string }).protocol;
  for (const u of urls) {
    if (protocol !== undefined && protocol !== u.protocol) throw new ChwireConfigError(`option agent is an ${protocol === 'https:' ? 'https' : 'http'}.Agent but a URL is ${u.protocol} (one agent serves every URL: give URLs of one scheme)`);
  }
  return agent;
}
