// The `chwire` command: `gen` (typed queries and precompiled decoders), `query` (a result to a file
// or stdout) and `insert` (a file into a table). Invariant: exit code 0 on success, 1 when the
// command failed (or `gen --check` found a difference), 2 on a usage error; an error prints one
// line naming what went wrong (never a password: errors of the client carry none).
import { UsageError } from './args.js';
import { GEN_HELP, genCommand, type CommandIO } from './gen.js';
import { INSERT_HELP, QUERY_HELP, insertCommand, queryCommand } from './query.js';

const HELP = `Usage: chwire <command> [options]

Commands:
  gen      write typed query functions and precompiled decoders from the server's schema
  query    stream a result to stdout or a file in any output format
  insert   stream a file or stdin into a table in any input format

Run "chwire <command> --help" for a command's options.
`;

export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'gen': return await genCommand(rest, io);
      case 'query': return await queryCommand(rest, io);
      case 'insert': return await insertCommand(rest, io);
      case undefined: case '--help': case '-h': case 'help':
        io.stdout.write(rest[0] === 'gen' ? GEN_HELP : rest[0] === 'query' ? QUERY_HELP : rest[0] === 'insert' ? INSERT_HELP : HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;
    io.stderr.write(`chwire ${command ?? ''}: ${(e as Error).message}\n`);
    if (usage) io.stderr.write(`Run "chwire ${command !== undefined && ['gen', 'query', 'insert'].includes(command) ? `${command} ` : ''}--help" for usage.\n`);
    return usage ? 2 : 1;
  }
}

