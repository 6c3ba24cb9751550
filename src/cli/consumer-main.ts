/**
 * The consumer package's `loadout` (packages/cli): the commands a project needs to take
 * loadouts from a catalogue, `install`, `update`, `uninstall`, `status`, `outdated` and
 * `search`, and nothing of the maintainers' toolchain. Bundled into one file with no
 * dependencies (DESIGN.md section 2, distribution); `test/import-graph.test.ts`
 * keeps its import graph free of the verifier, the builder, storage and native modules.
 */
import { declareConsumerCommands, type CommandContext } from './consumer-commands.js';
import { EXIT } from './exit.js';
import { createProgram, quietOnClosedPipe, runProgram } from './run-program.js';

/** The package's version, set by the bundler (packages/cli/build.mjs); `0.0.0` when run from source. */
declare const LOADOUT_CLI_VERSION: string | undefined;
const VERSION = typeof LOADOUT_CLI_VERSION === 'string' ? LOADOUT_CLI_VERSION : '0.0.0';

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

/**
 * Runs the consumer CLI with `argv` (as `process.argv`: node, script, args…).
 * @returns the exit code: 0 success, 1 failure, 2 usage error (DESIGN.md section 2).
 */
export async function consumerMain(argv: readonly string[]): Promise<number> {
  const ctx: CommandContext = { code: EXIT.ok };
  const program = createProgram('Install loadouts for coding agents from a catalogue, keep them up to date, and remove them.');
  declareConsumerCommands(program, ctx, out, err, VERSION);
  return runProgram(program, argv, VERSION, () => ctx.code, out, err);
}

quietOnClosedPipe();
