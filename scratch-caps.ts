import { readLoadoutSource, listLoadoutIds } from './src/catalogue/source.js';
import { runChecks } from './src/verify/run.js';
import { describeCapabilities, summarizeCapabilities } from './src/capabilities/describe.js';
for (const id of await listLoadoutIds('loadouts')) {
  const run = await runChecks(await readLoadoutSource('loadouts', id));
  const c = run.capabilities!;
  console.log(`== ${id}: runs ${c.runs}: ${summarizeCapabilities(c)}`);
  for (const s of describeCapabilities(c)) { console.log(`  ${s.title}`); for (const l of s.lines) console.log(`    - ${l.text}${l.consent ? ' [CONSENT]' : ''}`); }
}
