// Preloaded into every test process (`node --import`, see the `test` script). Under CI the
// fast-check properties run with one fixed seed, so a CI run is reproducible and a red build always
// means a change broke something; on a developer's machine every run draws a new seed, which is
// how the properties keep finding new cases (a failure prints its seed: rerun with FC_SEED=<seed>).
import fc from 'fast-check';

const fromEnv = process.env['FC_SEED'];
const seed = fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : process.env['CI'] ? 20261203 : undefined;
if (seed !== undefined && Number.isFinite(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
