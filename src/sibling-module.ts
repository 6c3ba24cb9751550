/**
 * Processes and worker threads the project starts from a module of its own, beside the caller.
 * From the compiled code (lib/) that module is the `.js` file; from the TypeScript sources (the
 * tests, `npx tsx bench/…`) it is the `.ts` file, which a forked process runs through tsx's
 * loader and a worker thread through tree/pool/ts-worker.mjs.
 */
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The module `name` (without extension) in the folder of the module at `base` (the caller's
 * `import.meta.url`): the `.ts` file when `base` is one (`fromSource`), else the `.js` file.
 */
export function siblingModule(base: string, name: string): { url: URL; fromSource: boolean } {
  const fromSource = base.endsWith('.ts');
  return { url: new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, base), fromSource };
}

/**
 * Forks the module `name` beside `base` ({@link siblingModule}) with `args` and `options`; from
 * the sources it runs through tsx (`--import tsx`), which the caller's process was started with.
 * @throws what `child_process.fork` throws.
 */
export function forkSibling(base: string, name: string, args: readonly string[], options: Omit<ForkOptions, 'execArgv'>): ChildProcess {
  const { url, fromSource } = siblingModule(base, name);
  return fork(fileURLToPath(url), args, { ...options, execArgv: fromSource ? ['--import', 'tsx'] : [] });
}
