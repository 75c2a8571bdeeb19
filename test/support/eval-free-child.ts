// Child of test/eval-free.property.test.ts: started with --disallow-code-generation-from-strings,
// it checks that code generation is really refused, runs the jobs (a v8-serialized file named in
// argv) on the interpreted paths, and writes the v8-serialized outcomes to stdout.
import { readFileSync } from 'node:fs';
import { serialize, deserialize } from 'node:v8';
import { codeGenerationAllowed } from '../../src/codegen/compile.js';
import { runJob, type Job } from './eval-free-jobs.js';

if (codeGenerationAllowed()) throw new Error('expected code generation to be refused in this process');
const jobs = deserialize(readFileSync(process.argv[2]!)) as Job[];
process.stdout.write(serialize(jobs.map(runJob)));
