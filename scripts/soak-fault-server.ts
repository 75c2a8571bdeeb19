// The soak's loopback fault server (test/support/test-server.ts, answering with bytes from the
// embedded engine chdb) in a process of its own, so that the soak process's memory is chwire's
// alone. Started by scripts/soak.ts with child_process.fork: prints its URL as the first line on
// stdout, then takes `{ id, marker, steps }` messages over IPC, scripts those faults and answers
// `{ id }` once they are in place (so the request that uses them is sent only after). Exits when
// the parent disconnects (the soak ends, or dies).
// Invariant: a fault script is acknowledged only after `fault.script` has run.
import { startTestServer, type Fault } from '../test/support/test-server.js';

interface ScriptMessage { id: number; marker: string; steps: (Fault | 'ok')[] }

const fault = await startTestServer();
process.on('message', (m: ScriptMessage) => {
  fault.script(m.marker, m.steps);
  // The server records every request for tests' assertions; nobody reads them here.
  fault.requests.length = 0;
  process.send!({ id: m.id });
});
process.once('disconnect', () => {
  void fault.close().finally(() => process.exit(0));
});
process.stdout.write(`${fault.url}\n`);
