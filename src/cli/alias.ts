// `chwire alias`: puts chwire's alias packages (alias/ in the package) in the place of
// @clickhouse/client, -common and -web for every module of a project, libraries included, the
// step docs/migrating.md describes. npm cannot install those `file:./node_modules/chwire/alias/…`
// entries together with chwire on a fresh install (the folders do not exist yet when it resolves
// them), so this command runs once chwire is installed: it writes the same string under
// `dependencies` and `overrides` for each name, then runs `npm install`.
// Invariant: package.json is written only when chwire's alias folders are present under the
// project's node_modules, and then only those six entries change (the rest of the file, its key
// order and indentation, is kept); `--dry-run` writes nothing and runs nothing.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './args.js';
import type { CommandIO } from './gen.js';

export const ALIAS_HELP = `Usage: chwire alias [--dir DIR] [--dry-run] [--no-install]

Serves @clickhouse/client, @clickhouse/client-common and @clickhouse/client-web from chwire/compat
for every module of the project in DIR (default: the current folder), libraries included: writes
"file:./node_modules/chwire/alias/<name>" under "dependencies" and "overrides" of its package.json,
then runs npm install. Run it after chwire itself is installed (npm install chwire). For chwire
installed from a folder, the entries point into that folder's alias/ instead.

  --dir DIR      the project's folder (where package.json is)
  --dry-run      print the entries, change nothing
  --no-install   write package.json, do not run npm install
`;

/** The official package names, each with the alias folder that serves it. */
export const ALIASES: readonly (readonly [name: string, folder: string])[] = [
  ['@clickhouse/client', 'client'],
  ['@clickhouse/client-common', 'client-common'],
  ['@clickhouse/client-web', 'client-web'],
];

type Json = Record<string, unknown>;

/**
 * Where the entries point: `./node_modules/chwire/alias` for an installed package; for chwire
 * installed from a folder (npm links it), that folder's alias/ by a relative path, since npm ci
 * cannot install a `file:` entry that leads through a link ("Cannot destructure property 'package'
 * of 'node.target'").
 */
export function aliasBase(dir: string): string {
  const installed = path.join(dir, 'node_modules', 'chwire');
  if (!lstatSync(installed).isSymbolicLink()) return './node_modules/chwire/alias';
  const rel = path.relative(dir, path.join(realpathSync(installed), 'alias')).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** package.json with the alias entries set; the names whose entry changed. */
export function withAliases(pkg: Json, base = './node_modules/chwire/alias'): { pkg: Json; changed: string[] } {
  const changed: string[] = [];
  const section = (key: string): Json => {
    const v = pkg[key];
    if (v === undefined) return {};
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`package.json: "${key}" is not an object`);
    return { ...(v as Json) };
  };
  const dependencies = section('dependencies');
  const overrides = section('overrides');
  for (const [name, folder] of ALIASES) {
    const spec = `file:${base}/${folder}`;
    if (dependencies[name] !== spec || overrides[name] !== spec) changed.push(name);
    dependencies[name] = spec;
    overrides[name] = spec;
  }
  return { pkg: { ...pkg, dependencies, overrides }, changed };
}

function indentOf(text: string): string | number {
  const m = /^[{[]\r?\n([ \t]+)/.exec(text);
  return m?.[1] ?? 2;
}

function npmInstall(dir: string, io: CommandIO): Promise<number> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve, reject) => {
    const child = spawn(npm, ['install', '--no-audit', '--no-fund'], { cwd: dir, env: io.env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    child.stdout.on('data', (d: Buffer) => io.stdout.write(d.toString()));
    child.stderr.on('data', (d: Buffer) => io.stderr.write(d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

export async function aliasCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { dir: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'no-install': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  });
  if (values.help === true) { io.stdout.write(ALIAS_HELP); return 0; }
  const dir = path.resolve(values.dir ?? '.');
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) throw new UsageError(`no package.json in ${dir} (run it in the project's folder, or pass --dir)`);
  const text = readFileSync(file, 'utf8');
  let pkg: unknown;
  try { pkg = JSON.parse(text); } catch (e) { throw new Error(`${file} is not valid JSON: ${(e as Error).message}`); }
  if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg)) throw new Error(`${file} does not hold a JSON object`);
  const missing = ALIASES.filter(([, folder]) => !existsSync(path.join(dir, 'node_modules', 'chwire', 'alias', folder, 'package.json')));
  if (missing.length > 0) {
    throw new Error(`chwire is not installed in ${path.join(dir, 'node_modules')} (no alias/${missing[0]![1]} there): run "npm install chwire" in ${dir} first, then "npx chwire alias"`);
  }
  const base = aliasBase(dir);
  const { pkg: next, changed } = withAliases(pkg as Json, base);
  for (const [name, folder] of ALIASES) io.stdout.write(`${name}: file:${base}/${folder}${changed.includes(name) ? '' : ' (already set)'}\n`);
  if (values['dry-run'] === true) { io.stdout.write('dry run: package.json not changed, npm install not run\n'); return 0; }
  if (changed.length > 0) writeFileSync(file, `${JSON.stringify(next, null, indentOf(text))}${text.endsWith('\n') ? '\n' : ''}`);
  io.stdout.write(changed.length > 0 ? `package.json: ${changed.length} name(s) set under "dependencies" and "overrides"\n` : 'package.json: nothing to change\n');
  if (values['no-install'] === true) return 0;
  const code = await npmInstall(dir, io);
  if (code !== 0) { io.stderr.write(`chwire alias: npm install exited with ${code}\n`); return 1; }
  const served = ALIASES.filter(([name]) => {
    const p = path.join(dir, 'node_modules', ...name.split('/'), 'package.json');
    return existsSync(p) && String((JSON.parse(readFileSync(p, 'utf8')) as Json)['version']).endsWith('+chwire');
  });
  if (served.length !== ALIASES.length) {
    io.stderr.write(`chwire alias: after npm install, ${ALIASES.length - served.length} name(s) are not chwire's alias packages in node_modules\n`);
    return 1;
  }
  io.stdout.write('node_modules: @clickhouse/client, -common and -web are served by chwire/compat\n');
  return 0;
}
