/**
 * `adapters`: the loadout has `AGENTS.md` at its root as its one `instructions` file; every
 * agent that needs an adapter (Claude Code, Gemini CLI) and is not marked `unsupported` has
 * one; each adapter is for such an agent, sits at its root-level name, imports `AGENTS.md`,
 * and equals the generator's output (spec "Install layout in published records").
 */
import { ADAPTER_AGENTS, adapterFileName, generateAdapter, type AdapterAgent } from '../../adapters/generate.js';
import { judge, plural, pluralWithVerb, skip, type Check, type Finding } from '../check.js';
import { atPointer } from '../locate.js';

export const adapters: Check = {
  id: 'adapters',
  name: 'Adapters match the generator',
  run(context) {
    const manifest = context.manifest;
    if (manifest === undefined) return skip('not run: loadout.yaml is not valid');
    const findings: Finding[] = [];
    const instructions = manifest.files.filter((f) => f.role === 'instructions');
    if (instructions.length !== 1 || instructions[0]?.path !== 'AGENTS.md') {
      findings.push({
        ...atPointer(context, '/files'),
        message: `declares ${instructions.length === 0 ? 'no instructions file' : `instructions files ${instructions.map((f) => f.path).join(', ')}`} (expected exactly one, at AGENTS.md, which the adapters import)`,
      });
    }
    const seen = new Set<AdapterAgent>();
    manifest.files.forEach((entry, index) => {
      if (entry.role !== 'adapter' || entry.agent === undefined) return;
      const agent = entry.agent;
      if (!(ADAPTER_AGENTS as readonly string[]).includes(agent)) {
        findings.push({ ...atPointer(context, `/files/${index}/agent`), message: `${entry.path} is an adapter for ${agent}, which reads AGENTS.md natively (expected adapters only for ${ADAPTER_AGENTS.join(', ')})` });
        return;
      }
      const adapterAgent = agent as AdapterAgent;
      if (seen.has(adapterAgent)) {
        findings.push({ ...atPointer(context, `/files/${index}/agent`), message: `${entry.path} is a second adapter for ${agent} (expected one)` });
      }
      seen.add(adapterAgent);
      const expectedPath = adapterFileName(adapterAgent);
      if (entry.path !== expectedPath) {
        findings.push({ ...atPointer(context, `/files/${index}/path`), message: `${entry.path} is the ${agent} adapter but is not at ${expectedPath} (expected the root-level file the agent reads)` });
      }
      const text = context.text(entry.path);
      if (text === undefined) return;
      const expected = generateAdapter(adapterAgent, manifest.title);
      if (!/^@AGENTS\.md\s*$/mu.test(text)) {
        findings.push({ file: entry.path, line: 1, message: 'does not import AGENTS.md (expected a line "@AGENTS.md")', hint: `Run \`loadout adapters ${manifest.id}\`.` });
      } else if (text.replaceAll('\r\n', '\n') !== expected) {
        findings.push({ file: entry.path, line: firstDifferentLine(text, expected), message: `differs from the generated adapter (run \`loadout adapters ${manifest.id}\` to regenerate it)` });
      }
    });
    for (const agent of ADAPTER_AGENTS) {
      if (!seen.has(agent) && manifest.compatibility?.[agent] !== 'unsupported') {
        findings.push({ ...atPointer(context, '/files'), message: `has no adapter for ${agent} (expected ${adapterFileName(agent)}, or compatibility.${agent}: unsupported)`, hint: `Run \`loadout adapters ${manifest.id}\`.` });
      }
    }
    return judge(findings, `${pluralWithVerb(seen.size, 'adapter', ['matches', 'match'])} the generator`, (n) => plural(n, 'adapter problem'));
  },
};

function firstDifferentLine(actual: string, expected: string): number {
  const a = actual.replaceAll('\r\n', '\n').split('\n');
  const b = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i + 1;
  return 1;
}
