// The install the install crash test kills: installs kit 1.0.0 for claude-code from <from> into
// <dir>, printing "go" just before it starts and "done <checkpoints> <ms>" after it
// (src/install/project/crash-points.ts: LOADOUT_CRASH_AT=N kills it at the N-th checkpoint).
import { performance } from 'node:perf_hooks';
import { installLoadout } from '../../src/install/install.js';

const [from = '', dir = ''] = process.argv.slice(2);
// Absent before the journal was written (the figure "before" runs this child on that code).
const points = (await import('../../src/install/project/crash-points.js').catch(() => undefined)) as { checkpointsPassed(): number } | undefined;
process.stdout.write('go\n');
const started = performance.now();
await installLoadout({ from, id: 'kit', agent: 'claude-code', dir, version: '1.0.0' });
process.stdout.write(`done ${points?.checkpointsPassed() ?? 0} ${Math.round(performance.now() - started)}\n`);
