'use strict';
// @clickhouse/client/dist/config: libraries import its option types only (the official module's runtime
// exports are the client's internals). Declared in config.d.ts.
Object.defineProperty(exports, '__esModule', { value: true });
