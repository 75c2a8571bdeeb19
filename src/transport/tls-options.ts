// TLS options of the Node HTTP transport, as a plain type (no `node:` types), so that the client's
// option types stay free of Node declarations. Node's TLS accepts any Uint8Array (a Buffer is one).

export interface TlsOptions {
  ca?: string | Uint8Array | (string | Uint8Array)[];
  cert?: string | Uint8Array;
  key?: string | Uint8Array;
  /** Default true. */
  rejectUnauthorized?: boolean;
  servername?: string;
}
