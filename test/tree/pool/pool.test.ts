import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_THREAD_YOUNG_MB, poolThreads, workerOptionsOf } from '../../../src/tree/pool/pool.js';
import { LoadoutError } from '../../../src/catalogue/errors.js';
import { runCli } from '../../helpers/cli.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';

describe("the parent's Node options a build thread takes", () => {
  const young = { maxYoungGenerationSizeMb: BUILD_THREAD_YOUNG_MB };

  it('takes profiling options with their values, given with = or as the next argument, and nothing else', () => {
    expect(workerOptionsOf(['--cpu-prof', '--cpu-prof-interval', '500', '--cpu-prof-dir=/tmp/p', '--input-type=module', '-e', 'code'])).toEqual({ execArgv: ['--cpu-prof', '--cpu-prof-interval', '500', '--cpu-prof-dir=/tmp/p'], resourceLimits: young });
    expect(workerOptionsOf(['--heap-prof', '--heap-prof-name', 'h.heapprofile', '--enable-source-maps'])).toEqual({ execArgv: ['--heap-prof', '--heap-prof-name', 'h.heapprofile', '--enable-source-maps'], resourceLimits: young });
    // A name that only starts like one of them is not one.
    expect(workerOptionsOf(['--stack-sizes', '--cpu-profiler', '--import', 'tsx'])).toEqual({ execArgv: [], resourceLimits: young });
  });

  it('takes the memory options, which a thread refuses as execArgv, as resource limits (MB)', () => {
    expect(workerOptionsOf(['--max-old-space-size', '4096', '--max-semi-space-size=8', '--stack-size=2048'])).toEqual({ execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 4096, maxYoungGenerationSizeMb: 24, stackSizeMb: 2 } });
    expect(workerOptionsOf(['--max_old_space_size=512', '--cpu-prof'])).toEqual({ execArgv: ['--cpu-prof'], resourceLimits: { ...young, maxOldGenerationSizeMb: 512 } });
  });

  it('builds in a process started with memory options (a thread refused them, and the build failed as a bug)', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'one' });
    const result = await runCli(['build', '--out', 'dist'], root, {}, ['--max-old-space-size=1024', '--max-semi-space-size=4', '--stack-size=900']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    expect(existsSync(join(root, 'dist', 'api', 'loadouts', 'one.json'))).toBe(true);
  });
});

describe('LOADOUT_BUILD_THREADS', () => {
  it('sets the number of threads, and defaults to one per core, at most 8', () => {
    expect(poolThreads({ LOADOUT_BUILD_THREADS: '3' })).toBe(3);
    expect(poolThreads({})).toBeGreaterThanOrEqual(1);
    expect(poolThreads({})).toBeLessThanOrEqual(8);
    expect(poolThreads({ LOADOUT_BUILD_THREADS: '' })).toBe(poolThreads({}));
  });

  it.each(['0', '-2', '1.5', 'two', '65'])('refuses %j, naming the variable and what it expects', (value) => {
    const call = (): number => poolThreads({ LOADOUT_BUILD_THREADS: value });
    expect(call).toThrow(LoadoutError);
    expect(call).toThrow(`LOADOUT_BUILD_THREADS: expected a whole number from 1 to 64, got ${JSON.stringify(value)}`);
  });

  it('a build with a bad value exits 2 and writes nothing', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'one' });
    const result = await runCli(['build', '--out', 'dist'], root, { LOADOUT_BUILD_THREADS: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LOADOUT_BUILD_THREADS: expected a whole number from 1 to 64, got "lots"');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});
