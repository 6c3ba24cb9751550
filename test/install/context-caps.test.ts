/**
 * Context caps at install and in status (issue 33, point 4): two loadouts that each fit under
 * Codex's `project_doc_max_bytes` pass it composed into one AGENTS.md; the install that passes
 * it warns with the cap, its source and the excess, and `status` shows it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installLoadout } from '../../src/install/install.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

describe('context caps of a composition', () => {
  it('warns when the composed AGENTS.md passes Codex\'s cap, naming it and by how much, and status shows it', async () => {
    const root = makeTempDir();
    const paragraph = `${'Keep functions small and name them for what they do. '.repeat(20)}\n\n`;
    for (const id of ['big-one', 'big-two']) writeLoadout(root, { id, title: id, files: baseFiles(id, `# ${id}\n\n${paragraph.repeat(17)}`) });
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
    const project = makeTempDir();
    const first = await installLoadout({ from: dist, id: 'big-one', agent: 'codex', dir: project });
    expect(first.composed.size_warnings).toEqual([]);
    const second = await installLoadout({ from: dist, id: 'big-two', agent: 'codex', dir: project });
    expect(second.composed.size_warnings).toEqual([expect.objectContaining({ agent: 'codex', target: 'AGENTS.md', cap: expect.objectContaining({ limit: 32768, source: 'developers.openai.com/codex/guides/agents-md' }) })]);
    const [warning] = second.composed.size_warnings;
    expect(warning?.excess).toBe((warning?.size ?? 0) - 32768);
    expect(warning?.excess).toBeGreaterThan(0);
    const status = await readStatus(projectScope(project));
    expect(status.ok).toBe(true);
    expect(status.size_warnings).toEqual(second.composed.size_warnings);
  });
});
