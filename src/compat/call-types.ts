// The parameters and results of the official client's calls that do not depend on the runtime
// (no stream type in them), shared by chwire/compat and chwire/compat/web. Types only.
import type { QuerySummary } from '../transport/types.js';
import type { CallAuth } from './auth.js';
import type { ClickHouseSettings } from './options.js';
import type { ResponseHeaders } from './result-types.js';

/** What every call takes (the official BaseQueryParams). */
export interface BaseQueryParams {
  clickhouse_settings?: ClickHouseSettings;
  query_params?: Record<string, unknown>;
  abort_signal?: AbortSignal;
  query_id?: string;
  session_id?: string;
  role?: string | string[];
  http_headers?: Record<string, string>;
  /** Per-call credentials (a chwire client per distinct credentials, see auth.ts). */
  auth?: CallAuth;
}

export interface QueryParams extends BaseQueryParams {
  query: string;
  /** Default 'JSON'. */
  format?: string;
}

export interface CommandResult {
  query_id: string;
  summary?: QuerySummary | undefined;
  response_headers: ResponseHeaders;
}
export type PingResult = { success: true } | { success: false; error: Error };
export interface PingParams { select?: boolean; query_id?: string; abort_signal?: AbortSignal; http_headers?: Record<string, string> }

