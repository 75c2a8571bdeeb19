// The `chwire` command: `gen` (typed queries and precompiled decoders), `query` (a result to a file
// or stdout), `insert` (a file into a table) and `alias` (chwire/compat under @clickhouse/client's names). Invariant: exit code 0 on success, 1 when the
// command failed (or `gen --check` found a difference), 2 on a usage error, 130 / 143 when SIGINT /
// SIGTERM stopped `query` or `insert`; an error prints one line naming what went wrong, in the
// command line's terms (messages.ts), never a password (errors of the client carry none, and
// `--password` or a password in `--url` is refused before anything is sent). Each command's module
// is imported when that command runs, so `query` never loads the code generator nor `gen` the
// export path (startup is most of a short command's time; test/cli.startup.test.ts).
import { UsageError, refusePasswordFlag } from './args.js';
import type { CommandIO } from './gen.js';
import { cliMessage } from './messages.js';
import { interruptible, signalExitCode } from './signals.js';

const HELP = `Usage: chwire <command> [options]

Commands:
  gen      write typed query functions and precompiled decoders from the server's schema
  query    stream a result to stdout or a file in any output format
  insert   stream a file or stdin into a table in any input format
  alias    serve @clickhouse/client (and -common, -web) from chwire/compat for the whole project

Run "chwire <command> --help" for a command's options.
`;

export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  const [command, ...rest] = argv;
  // Only the commands that run a long call take over SIGINT / SIGTERM (gen stops as any process).
  const stop = command === 'query' || command === 'insert' ? interruptible() : undefined;
  try {
    refusePasswordFlag(rest);
    switch (command) {
      case 'gen': return await (await import('./gen.js')).genCommand(rest, io);
      case 'query': return await (await import('./query.js')).queryCommand(rest, io, stop!);
      case 'insert': return await (await import('./insert.js')).insertCommand(rest, io, stop!);
      case 'alias': return await (await import('./alias.js')).aliasCommand(rest, io);
      case undefined: case '--help': case '-h': case 'help':
        io.stdout.write(rest[0] === 'gen' ? (await import('./gen.js')).GEN_HELP
          : rest[0] === 'query' ? (await import('./query.js')).QUERY_HELP
          : rest[0] === 'insert' ? (await import('./insert.js')).INSERT_HELP
          : rest[0] === 'alias' ? (await import('./alias.js')).ALIAS_HELP : HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    const sig = stop?.received();
    if (sig !== undefined) {
      // An interrupted insert keeps the client's message (what may have been committed).
      io.stderr.write(`chwire ${command}: ${command === 'query' ? `stopped by ${sig}; the server was asked to stop the query` : cliMessage((e as Error).message)}\n`);
      return signalExitCode(sig);
    }
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;
    io.stderr.write(`chwire ${command ?? ''}: ${cliMessage((e as Error).message)}\n`);
    if (usage) io.stderr.write(`Run "chwire ${command !== undefined && ['gen', 'query', 'insert', 'alias'].includes(command) ? `${command} ` : ''}--help" for usage.\n`);
    return usage ? 2 : 1;
  } finally {
    stop?.dispose();
  }
}

