'use strict';
// @clickhouse/client-web, served by chwire/compat/web: loaded by a path relative to this file, inside
// the chwire package, so `import` and `require` share one module wherever npm put the link.
module.exports = require('../../dist/cjs/compat-web.js');
