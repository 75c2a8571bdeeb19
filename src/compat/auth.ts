// Per-call `auth` of @clickhouse/client 1.x ({ username, password } or { access_token }) over
// chwire, which authenticates per client: one chwire client per distinct credentials, made on
// first use with the compat client's other options and closed with it.
// Invariants: at most MAX_CLIENTS such clients live at once (the least recently used is closed
// past that); the credentials are never logged or put in an error (they key an in-memory map only).
import type { ClientOptions, TransportFactory } from '../client/options/config.js';
import { ChwireConfigError } from '../errors.js';

export type CallAuth = { username?: string; password?: string } | { access_token: string };

const MAX_CLIENTS = 16;

/** What makes a client: chwire's createClientWith (chwire/compat) or createQueryClientWith (chwire/compat/web, which needs no insert encoders). */
export type MakeClient<C> = (options: ClientOptions, transport: TransportFactory) => C;

export class AuthClients<C extends { close(): Promise<void> }> {
  private readonly clients = new Map<string, C>();

  constructor(private readonly base: ClientOptions, private readonly transport: TransportFactory, private readonly make: MakeClient<C>) {}

  /** The client that authenticates as `auth`. */
  get(auth: unknown): C {
    const options = this.optionsFor(auth);
    const key = JSON.stringify([options.username, options.password, options.accessToken]);
    let c = this.clients.get(key);
    if (c !== undefined) {
      this.clients.delete(key);
    } else {
      c = this.make(options, this.transport);
      if (this.clients.size >= MAX_CLIENTS) {
        const [oldest, old] = this.clients.entries().next().value as [string, C];
        this.clients.delete(oldest);
        void old.close();
      }
    }
    this.clients.set(key, c);
    return c;
  }

  async close(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(all.map((c) => c.close()));
  }

  private optionsFor(auth: unknown): ClientOptions {
    if (typeof auth !== 'object' || auth === null) throw new ChwireConfigError('option auth must be { username, password } or { access_token }');
    const a = auth as Record<string, unknown>;
    const { username: _u, password: _p, accessToken: _t, ...rest } = this.base;
    if (a['access_token'] !== undefined) {
      if (typeof a['access_token'] !== 'string') throw new ChwireConfigError('option auth.access_token must be a string');
      return { ...rest, accessToken: a['access_token'] };
    }
    for (const k of ['username', 'password']) {
      if (a[k] !== undefined && typeof a[k] !== 'string') throw new ChwireConfigError(`option auth.${k} must be a string`);
    }
    return { ...rest, username: (a['username'] as string | undefined) ?? 'default', password: (a['password'] as string | undefined) ?? '' };
  }
}
