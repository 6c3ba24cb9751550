/**
 * `starter-build`: when `tested.fixture` names a starter fixture (`<catalogue>/fixtures/<name>/`),
 * install the loadout for every agent it supports (`layout/compatibility.ts`) into a temporary copy of it and compare the tree with
 * the install plan: every planned target exists with the planned bytes, no file of the fixture
 * is overwritten or lost, and nothing else appears (DESIGN.md section 4). `n/a` when
 * `tested.fixture` is null. Temporary copies are removed.
 */
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePathProblem } from '../../catalogue/file-path.js';
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import { listSupportedAgents } from '../../layout/compatibility.js';
import { describeAgents, judge, notApplicable, plural, skip, type Check, type CheckContext, type Finding } from '../check.js';
import { installIntoCopy } from '../starter/compare.js';

export const starterBuild: Check = {
  id: 'starter-build',
  name: 'Starter build',
  async run(context) {
    const manifest = context.manifest;
    if (manifest === undefined) return skip('not run: loadout.yaml is not valid');
    const name = manifest.tested.fixture;
    if (name === null) return notApplicable('no starter fixture (tested.fixture is null)');
    if (context.fixturesDir === undefined) return skip('not run: no fixtures folder given');
    const where = { file: MANIFEST_FILE, line: context.manifestYaml?.lineOf('/tested/fixture'), pointer: '/tested/fixture' };
    const problem = describePathProblem(name);
    if (problem !== undefined) return judge([{ ...where, message: `tested.fixture "${name}" ${problem}` }], '', () => 'bad fixture name');
    const fixture = join(context.fixturesDir, name);
    const isDir = await stat(fixture).then((s) => s.isDirectory(), () => false);
    if (!isDir) return judge([{ ...where, message: `tested.fixture "${name}" has no folder fixtures/${name}/ (expected the starter project at fixtures/${name}/)` }], '', () => `fixture ${name} missing`);
    const findings: Finding[] = [];
    let installed = 0;
    const agents = listSupportedAgents(manifest);
    for (const agent of agents) {
      const dir = await mkdtemp(join(tmpdir(), 'loadout-starter-'));
      try {
        const project = join(dir, 'project');
        await cp(fixture, project, { recursive: true, verbatimSymlinks: true });
        const outcome = await installIntoCopy(context, agent, name, project);
        installed += outcome.installed;
        findings.push(...outcome.findings);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    return judge(mergeAgents(findings, context), `${plural(installed, 'file')} installed into fixtures/${name} for ${describeAgents(agents)}; ${agents.length === 1 ? 'the tree matches its install plan' : 'trees match the install plans'}`, (n) => plural(n, 'starter build problem'));
  },
};

/** One finding per problem, listing the agents it affects, instead of one per agent. */
function mergeAgents(findings: Finding[], _context: CheckContext): Finding[] {
  const merged = new Map<string, { finding: Finding; agents: string[] }>();
  for (const f of findings) {
    const m = /^for ([\w-]+): /u.exec(f.message);
    const agent = m?.[1] ?? '';
    const rest = m === null ? f.message : f.message.slice(m[0].length);
    const key = `${f.file}\u0000${f.line ?? ''}\u0000${rest}`;
    const entry = merged.get(key);
    if (entry === undefined) merged.set(key, { finding: { ...f, message: rest }, agents: agent === '' ? [] : [agent] });
    else if (agent !== '') entry.agents.push(agent);
  }
  return [...merged.values()].map(({ finding, agents }) => ({ ...finding, message: agents.length === 0 ? finding.message : `for ${agents.join(', ')}: ${finding.message}` }));
}
