// The build's worker threads run src/tree/pool/loadout-worker.ts through tsx when the build itself
// runs from the TypeScript sources (tests, `npx tsx bench/…`): a worker thread starts without
// the loader its parent was started with. The compiled CLI runs lib/tree/pool/loadout-worker.js
// directly and never loads this file (pool.ts).
import { workerData } from 'piscina';
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport(workerData.entry, import.meta.url);
export default worker.default;
