'use strict';
// @clickhouse/client, served by chwire/compat: loaded by a path relative to this file, inside the chwire package.
module.exports = require('../../dist/cjs/compat.js');
