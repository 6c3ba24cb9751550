/**
 * The `loadout` CLI: declares commands and flags, lazily imports each command, and turns
 * errors into exit codes in one place (STYLE.md: changesets' cli.ts). Commands return exit
 * codes; the core never prints or exits.
 */
import { Command, CommanderError, Option } from 'commander';
import { LoadoutError } from '../catalogue/errors.js';
import { resolveConfig, parsePort } from './config.js';
import { EXIT, ExitError } from './exit.js';

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, args…).
 * @returns the exit code: 0 success, 1 failure, 2 usage error (DESIGN.md section 2).
 */
export async function main(argv: readonly string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command('loadout')
    .description('Validate, verify, build and serve a catalogue of loadouts for coding agents.')
    .addOption(new Option('--root <dir>', 'catalogue root (holds loadouts/)').default(process.cwd(), 'the current folder'))
    .showHelpAfterError()
    .exitOverride();
  const root = (): string => program.opts<{ root: string }>().root;

  program
    .command('new')
    .description('scaffold loadouts/<id>/ with a valid loadout.yaml, AGENTS.md and generated adapters')
    .argument('<id>', 'loadout id (a slug)')
    .action(async (id: string) => {
      const { newCommand } = await import('./commands/new.js');
      code = await newCommand({ root: root(), id, today: new Date().toISOString().slice(0, 10) }, out);
    });

  program
    .command('validate')
    .description('check loadout.yaml against the schema and the files present (the listing check)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--json', 'print [{id, valid, errors}] as JSON')
    .action(async (ids: string[], opts: { json?: boolean }) => {
      const { validateCommand } = await import('./commands/validate.js');
      code = await validateCommand({ root: root(), ids, json: opts.json === true }, out, err);
    });

  program
    .command('adapters')
    .description('write the CLAUDE.md and GEMINI.md adapters from the generator (or --check them)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--check', 'write nothing; exit 1 when an adapter differs from the generator')
    .action(async (ids: string[], opts: { check?: boolean }) => {
      const { adaptersCommand } = await import('./commands/adapters.js');
      code = await adaptersCommand({ root: root(), ids, check: opts.check === true }, out, err);
    });

  program
    .command('verify')
    .description('run the ten checks on each loadout')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--json', 'print [{id, verification}] as JSON')
    .action(async (ids: string[], opts: { json?: boolean }) => {
      const { verifyCommand } = await import('./commands/verify.js');
      code = await verifyCommand({ root: root(), ids, json: opts.json === true }, out);
    });

  program
    .command('build')
    .description('check every loadout and write the static API tree')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--base-url <url>', 'base address of the published URLs (default: LOADOUT_BASE_URL or http://localhost:8787)')
    .action(async (opts: { out: string; baseUrl?: string }) => {
      const config = resolveConfig();
      const { buildCommand } = await import('./commands/build.js');
      const progress = process.stderr.isTTY && process.env['CI'] === undefined;
      code = await buildCommand({ root: root(), out: opts.out, baseUrl: opts.baseUrl ?? config.baseUrl, progress }, out, err);
    });

  program
    .command('serve')
    .description('serve the built tree and the dynamic API')
    .option('--port <port>', 'port (default: PORT or 8787)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--out <dir>', 'built tree to serve', 'dist')
    .action(async (opts: { port?: string; host: string; out: string }) => {
      const config = resolveConfig();
      const { serveCommand } = await import('./commands/serve.js');
      const port = opts.port === undefined ? config.port : parsePort(opts.port, '--port');
      const server = await serveCommand({ out: opts.out, port, host: opts.host, config }, out);
      const stop = (): void => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    return exitCodeOf(error);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ExitError) {
    if (error.message !== '') err(`loadout: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // Commander has printed its message; help and version are not errors.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof LoadoutError) {
    err(`loadout: ${error.message}\n`);
    if (error.hint !== undefined) err(`loadout: hint: ${error.hint}\n`);
    return error.code === 'usage' ? EXIT.usage : EXIT.failed;
  }
  err(`loadout: internal error (a bug, please report it): ${(error as Error).stack ?? String(error)}\n`);
  return EXIT.failed;
}
