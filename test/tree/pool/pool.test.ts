import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inheritedExecArgv, poolThreads } from '../../../src/tree/pool/pool.js';
import { LoadoutError } from '../../../src/catalogue/errors.js';
import { runCli } from '../../helpers/cli.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';

describe("the parent's Node options a build thread takes", () => {
  it('takes profiling and memory options with their values, given with = or as the next argument, and nothing else', () => {
    expect(inheritedExecArgv(['--cpu-prof', '--cpu-prof-interval', '500', '--cpu-prof-dir=/tmp/p', '--input-type=module', '-e', 'code'])).toEqual(['--cpu-prof', '--cpu-prof-interval', '500', '--cpu-prof-dir=/tmp/p']);
    expect(inheritedExecArgv(['--max-old-space-size', '4096', '--heap-prof', '--heap-prof-name', 'h.heapprofile', '--enable-source-maps'])).toEqual(['--max-old-space-size', '4096', '--heap-prof', '--heap-prof-name', 'h.heapprofile', '--enable-source-maps']);
    // A name that only starts like one of them is not one.
    expect(inheritedExecArgv(['--stack-sizes', '--cpu-profiler', '--import', 'tsx'])).toEqual([]);
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
