// What the `chwire` command prints on stderr. An error of the client speaks in the API's terms
// (`appendedExceptions: 'wait'`); the command line has flags instead, so such a message is
// rewritten to name the flag a user of the command would type. Non-errors (what a command did)
// go to a terminal only: with stderr redirected, a command prints nothing but errors.
// Invariant: the rewrite only swaps option names for flag names, never adds or drops a value.

/** API option phrases in client messages → the `chwire` flag that sets the same thing. */
const FLAGS: readonly [RegExp, string][] = [
  [/\bappendedExceptions: '(detect|wait)'/g, '--appended-exceptions $1'],
  [/\b(?:option )?appendedExceptions\b/g, '--appended-exceptions'],
  [/\{ format: '([^']*)' \}/g, '--format $1'],
];

/** A client error's message as the command line should say it. */
export function cliMessage(message: string): string {
  let out = message;
  for (const [re, flag] of FLAGS) out = out.replace(re, flag);
  return out;
}

interface Err { write(s: string): unknown; isTTY?: boolean }

/** A line about what a command did: shown on a terminal, dropped when stderr is redirected. */
export function note(stderr: Err, line: string): void {
  if (stderr.isTTY === true) stderr.write(`${line}\n`);
}
