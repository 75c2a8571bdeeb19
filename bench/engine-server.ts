// A child process for benches that need a 26.x server on a machine without one: the loopback test
// server over the embedded engine (test/support/test-server.ts), its URL printed as the first line
// of stdout. It runs apart so that the server's CPU time is not counted in the bench process's.
// It ends when its stdin closes (the bench ended or died).
import { startTestServer } from '../test/support/test-server.js';

const server = await startTestServer();
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => { void server.close().then(() => process.exit(0)); });
