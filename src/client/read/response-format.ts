// The format a response says it is in. Invariant: a body the client is about to decode is decoded
// only as the format it asked for; when the server names another one (X-ClickHouse-Format, sent
// by 19.x and later; 18.16 and the embedded engine send none) the call fails before a byte is
// read, rather than decoding one format's bytes as another's rows.
import { ChwireDecodeError } from '../../errors.js';
import type { TransportResponse } from '../../transport/types.js';

/**
 * Throws (after cancelling the response) when `response` names a format other than `asked`.
 * Format names compare case-insensitively (newer servers take them so); the server's text is
 * bounded and quoted, never trusted.
 */
export function checkResponseFormat(asked: string, response: TransportResponse, queryId: string | undefined): void {
  const said = response.format;
  if (said === undefined || said.toLowerCase() === asked.toLowerCase()) return;
  response.cancel();
  const shown = JSON.stringify(said.length > 64 ? `${said.slice(0, 64)}…` : said);
  throw new ChwireDecodeError(`the server answered in format ${shown} (its X-ClickHouse-Format header) where chwire asked for ${JSON.stringify(asked)}; the body was not decoded`, { offset: 0 }, { queryId, host: response.url });
}
