/** `loadout dev`'s warning when watching stops (src/cli/commands/dev.ts `formatWatchStop`). */
import { describe, expect, it } from 'vitest';
import { formatWatchStop } from '../../src/cli/commands/dev.js';

describe('the warning when watching stops', () => {
  it('is one line, with a folder name\'s control characters shown, not sent to the terminal', () => {
    const text = formatWatchStop(new Error("inotify_add_watch on '/c/loadouts/x\u001b]52;c;aGk=\u0007\nforged' failed: No space left on device"));
    expect(text).toBe("loadout: warning: watching loadouts/ stopped: inotify_add_watch on '/c/loadouts/x\\u{1b}]52;c;aGk=\\u{7}\\u{a}forged' failed: No space left on device (trying again; once it watches, git tells what changed meanwhile)\n");
    expect(text.split('\n')).toHaveLength(2);
  });
});
