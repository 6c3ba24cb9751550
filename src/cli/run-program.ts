/**
 * Running a declared commander program and turning how it ended into an exit code, in one
 * place for both CLIs (`main.ts`, `consumer-main.ts`; STYLE.md: only the entry point sets
 * the exit code). With `--json`, an error is printed as `{"error": {"code", "name",
 * "message", "hint"}}` on stdout (`install/errors.ts`), with the same exit code. Messages are
 * printed through `terminal-text.ts`: they quote catalogues, locks and projects.
 */
import { Command, CommanderError, Help, Option } from 'commander';
import { LoadoutError } from '../catalogue/errors.js';
import { errorJson } from '../install/errors.js';
import { EXIT, ExitError } from './exit.js';
import { thisInvocation, withInvocation } from './invocation.js';
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

/** The program's own version flag, as commander's `.version()` names it. */
const VERSION_FLAGS = ['-V', '--version'];

/**
 * The `loadout` program of either CLI, before its commands are declared: errors name the
 * program as every other message does (`loadout: unknown command 'instal'`, not commander's
 * `error:`), are followed by the help and a suggestion, and end in an exception instead of
 * `process.exit`. Its version flag counts only before the command (see {@link asksForVersion}):
 * `loadout --version` prints the version, `loadout install x --version 1.0.0` is `install`'s own
 * option. Commander's `.version()` cannot do this: it reads a program option anywhere on the
 * line, so `install --version 1.0.0` printed the CLI's version, exited 0 and installed nothing
 * (issue 36, point 1); here the flag is only listed in the help, and {@link runProgram} answers it.
 */
export function createProgram(description: string): Command {
  const program = new Command('loadout');
  const shown = new Option(VERSION_FLAGS.join(', '), 'print the version number (before any command)');
  return program
    .description(description)
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /u, 'loadout: ')) })
    .configureHelp({
      visibleOptions(this: Help, cmd: Command): Option[] {
        const options = Help.prototype.visibleOptions.call(this, cmd);
        return cmd === program ? [shown, ...options] : options;
      },
    })
    .showHelpAfterError()
    .showSuggestionAfterError()
    .exitOverride();
}

/**
 * True when `args` (the arguments after node and the script) ask for the program's version:
 * `-V` or `--version` before the first word that names one of `program`'s commands.
 */
export function asksForVersion(program: Command, args: readonly string[]): boolean {
  const commands = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  for (const arg of args) {
    if (VERSION_FLAGS.includes(arg)) return true;
    if (arg === '--' || commands.has(arg)) return false;
  }
  return false;
}

/**
 * Parses `argv` with `program` (made by {@link createProgram}) and runs the command, or prints
 * `version` when the arguments ask for it ({@link asksForVersion}).
 * @returns the command's exit code (`code()` after it ran), or the error's: 2 for usage, 1 otherwise.
 */
export async function runProgram(program: Command, argv: readonly string[], version: string, code: () => number, out: Write, err: Write): Promise<number> {
  if (asksForVersion(program, argv.slice(2))) {
    out(`${version}\n`);
    return EXIT.ok;
  }
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
  // Consumer commands in them are written as the user ran this CLI (invocation.ts).
  if (json) {
    const { error: shape } = errorJson(error);
    out(`${printableJson({ error: { ...shape, hint: shape.hint === null ? null : withInvocation(shape.hint, thisInvocation()) } }, 0)}\n`);
  }
  if (error instanceof LoadoutError) {
    if (!json) {
      err(`loadout: ${printable(withInvocation(error.message, thisInvocation()))}\n`);
      if (error.hint !== undefined) err(`loadout: hint: ${printable(withInvocation(error.hint, thisInvocation()))}\n`);
    }
    return error.code === 'usage' ? EXIT.usage : EXIT.failed;
  }
  err(`loadout: internal error (a bug, please report it): ${printable((error as Error).stack ?? String(error))}\n`);
  return EXIT.failed;
}
