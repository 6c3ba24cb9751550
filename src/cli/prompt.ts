/**
 * Asking the user a yes-or-no question in the terminal (the consent of `install` and `update`,
 * issue 54): only when both standard input and standard error are terminals, so that a pipe,
 * a CI job or `--json` never waits for an answer that cannot come.
 */
import { createInterface } from 'node:readline/promises';

/** True when a question can be asked and answered here. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** Asks `question` on standard error and reads one line: true for `y` or `yes` (any case), false otherwise or when no question can be asked. */
export async function askYes(question: string): Promise<boolean> {
  if (!canAsk()) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^\s*y(?:es)?\s*$/iu.test(await rl.question(`${question} [y/N] `));
  } finally {
    rl.close();
  }
}
