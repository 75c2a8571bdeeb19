// The `chwire:query` diagnostics channel as a test sees it: the start events (copies of their
// contexts) published while subscribed, the client's own queries included.
import dc from 'node:diagnostics_channel';

export function channelEvents(): { events: Record<string, unknown>[]; stop(): void } {
  const events: Record<string, unknown>[] = [];
  const tc = dc.tracingChannel('chwire:query');
  const handlers = { start: (m: unknown) => events.push({ ...(m as object) }), end: () => undefined, asyncStart: () => undefined, asyncEnd: () => undefined, error: () => undefined };
  tc.subscribe(handlers as never);
  return { events, stop: () => tc.unsubscribe(handlers as never) };
}
