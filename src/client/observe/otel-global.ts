// `tracing: true` in the Node entry: the tracer of OpenTelemetry's global provider,
// `trace.getTracer('chwire')`, from the optional peer `@opentelemetry/api`, imported on the first
// call (observe/tracing.ts waits for it). Invariants: only src/index.ts imports this module, so
// chwire/web and chwire/codec bundles hold no import of `@opentelemetry/api` (an app on the edge
// passes its own tracer); an option object with a tracer, or no tracing, is returned unchanged.
import { GLOBAL_TRACER, type GlobalTracerLoader, type TraceApi } from './tracing.js';

type Api = Partial<TraceApi> & { default?: TraceApi };

const loadGlobalTracer: GlobalTracerLoader = () =>
  (import('@opentelemetry/api') as Promise<Api>).then((m) => {
    const api = m.trace !== undefined && m.context !== undefined ? m as TraceApi : m.default!;
    return { tracer: api.trace.getTracer('chwire'), api };
  });

/** `options` with the global-tracer loader attached where tracing asks for the global tracer. */
export function withGlobalTracer<O extends { tracing?: unknown }>(options: O): O {
  if (typeof options !== 'object' || options === null) return options;
  const t = options.tracing;
  if (t === true) return { ...options, tracing: { [GLOBAL_TRACER]: loadGlobalTracer } };
  if (typeof t === 'object' && t !== null && (t as { tracer?: unknown }).tracer === undefined) {
    return { ...options, tracing: { ...t, [GLOBAL_TRACER]: loadGlobalTracer } };
  }
  return options;
}
