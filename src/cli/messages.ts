// What the `chwire` command prints on stderr. An error of the client speaks in the API's terms
// (`appendedExceptions: 'wait'`); the command line has flags instead, so such a message is
// rewritten to name the flag a user of the command would type. Non-errors (what a command did)
// go to a terminal only: with stderr redirected, a command prints nothing but errors.
// A message may carry a server's text (an identifier, a tenant's string): its control characters
// (C0 but tab and newline, DEL, C1) are printed escaped (`\x1b`), so no escape sequence from a
// server reaches the terminal.
// Invariant: the rewrite only swaps option names for flag names and escapes control characters,
// never adds or drops a value.

/** API option phrases in client messages → the `chwire` flag that sets the same thing. */
const FLAGS: readonly [RegExp, string][] = [
  [/\bappendedExceptions: '(detect|wait)'/g, '--appended-exceptions $1'],
  [/\b(?:option )?appendedExceptions\b/g, '--appended-exceptions'],
  [/\{ format: '([^']*)' \}/g, '--format $1'],
];

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Control characters as `\xHH`, tab and newline as they are. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A client error's message as the command line should say it. */
export function cliMessage(message: string): string {
  let out = message;
  for (const [re, flag] of FLAGS) out = out.replace(re, flag);
  return escapeControls(out);
}

interface Err { write(s: string): unknown; isTTY?: boolean }

/** A line about what a command did: shown on a terminal, dropped when stderr is redirected. */
export function note(stderr: Err, line: string): void {
  if (stderr.isTTY === true) stderr.write(`${line}\n`);
}
