import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseMemoryWhenIdle as release } from '../../src/server/idle-memory.js';

const setFlagsFromString = vi.fn();
const releaseMemoryWhenIdle = (idleMs: number): ReturnType<typeof release> => release(idleMs, setFlagsFromString);

beforeEach(() => {
  setFlagsFromString.mockClear();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => vi.useRealTimers());

describe('releasing memory when idle', () => {
  it('switches V8 to optimising for size after idleMs without a request, and back on the next request', () => {
    const idle = releaseMemoryWhenIdle(1000);
    idle.touch();
    vi.advanceTimersByTime(900);
    idle.touch();
    vi.advanceTimersByTime(900);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    vi.advanceTimersByTime(600);
    expect(setFlagsFromString.mock.calls).toEqual([['--optimize-for-size']]);
    vi.advanceTimersByTime(5000);
    expect(setFlagsFromString).toHaveBeenCalledTimes(1);
    idle.touch();
    idle.touch();
    expect(setFlagsFromString.mock.calls).toEqual([['--optimize-for-size'], ['--no-optimize-for-size']]);
    idle.stop();
  });

  it('leaves V8 as it was when stopped', () => {
    const idle = releaseMemoryWhenIdle(1000);
    vi.advanceTimersByTime(1500);
    idle.stop();
    expect(setFlagsFromString.mock.calls).toEqual([['--optimize-for-size'], ['--no-optimize-for-size']]);
    vi.advanceTimersByTime(5000);
    expect(setFlagsFromString).toHaveBeenCalledTimes(2);
  });
});
