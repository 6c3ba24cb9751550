// The build the crash test kills: builds <root> into <out>, then prints the checkpoints it
// passed (src/tree/write/crash-points.ts). LOADOUT_CRASH_AT=N in the environment kills it at the N-th.
import { buildCatalogue } from '../../../src/tree/build.js';
import { checkpointsPassed } from '../../../src/tree/write/crash-points.js';

const [root = '', out = ''] = process.argv.slice(2);
await buildCatalogue({ root, out, baseUrl: 'https://catalogue.test', now: new Date('2026-11-22T00:00:00Z') });
process.stdout.write(String(checkpointsPassed()));
