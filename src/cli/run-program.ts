/**
 * Running a declared commander program and turning how it ended into an exit code, in one
 * place for both CLIs (`main.ts`, `consumer-main.ts`; STYLE.md: only the entry point sets
 * the exit code). With `--json`, an error is printed as `{"error": {"code", "name",
 * "message", "hint"}}` on stdout (`install/errors.ts`), with the same exit code. Messages are
 * printed through `terminal-text.ts`: they quote catalogues, locks and projects.
 */
import { CommanderError, type Command } from 'commander';
import { LoadoutError } from '../catalogue/errors.js';
import { errorJson } from '../install/errors.js';
import { EXIT, ExitError } from './exit.js';
import { printable, printableJson } from './terminal-text.js';
import type { Write } from './report.js';

/**
 * Makes a reader that stops early (`loadout verify | head`) end the process quietly, as Unix
 * tools do, instead of crashing on EPIPE.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

/**
 * Parses `argv` with `program` (declared with `exitOverride()`) and runs the command.
 * @returns the command's exit code (`code()` after it ran), or the error's: 2 for usage, 1 otherwise.
 */
export async function runProgram(program: Command, argv: readonly string[], code: () => number, out: Write, err: Write): Promise<number> {
  try {
    await program.parseAsync(argv);
    return code();
  } catch (error) {
    return exitCodeOf(error, argv.slice(2).includes('--json'), out, err);
  }
}

function exitCodeOf(error: unknown, json: boolean, out: Write, err: Write): number {
  if (error instanceof ExitError) {
    if (error.message !== '') err(`loadout: ${printable(error.message)}\n`);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // Commander has printed its message; help and version are not errors.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  // Messages and hints quote catalogues, locks and projects: printed through the printable escaping (terminal-text.ts).
  if (json) out(`${printableJson(errorJson(error), 0)}\n`);
  if (error instanceof LoadoutError) {
    if (!json) {
      err(`loadout: ${printable(error.message)}\n`);
      if (error.hint !== undefined) err(`loadout: hint: ${printable(error.hint)}\n`);
    }
    return error.code === 'usage' ? EXIT.usage : EXIT.failed;
  }
  err(`loadout: internal error (a bug, please report it): ${printable((error as Error).stack ?? String(error))}\n`);
  return EXIT.failed;
}
