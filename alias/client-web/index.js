'use strict';
// @clickhouse/client-web, served by chwire/compat/web: loaded by a path relative to this file, inside
// the chwire package. Until this chwire build has the compat web entry (dist/cjs/compat-web.js), the
// module loads (libraries import its types, hypequery only in the browser) and createClient throws
// an error saying so: never the official web client, never a silent stand-in.
let web;
try {
  web = require('../../dist/cjs/compat-web.js');
} catch (e) {
  if (!e || e.code !== 'MODULE_NOT_FOUND' || !String(e.message).includes('compat-web')) throw e;
  const missing = () => {
    throw new Error('@clickhouse/client-web is installed as chwire\'s alias, but this chwire build has no compat web entry (chwire/compat/web): use @clickhouse/client (chwire/compat) on Node, or a chwire version with chwire/compat/web');
  };
  web = { createClient: missing, ClickHouseClient: function ClickHouseClient() { missing(); } };
}
module.exports = web;
// The names for `import { … } from '@clickhouse/client-web'` (Node's CommonJS export detection reads this line; it never runs).
0 && (module.exports = { createClient, ClickHouseClient });
