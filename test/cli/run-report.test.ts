/**
 * What install prints for a run of several loadouts (a bundle's members): one capability list in
 * which a host reached for one reason is one line and each file is named below its loadout
 * (capabilities-report.ts `runLists`), and what each loadout requires under its own name and
 * version (requirements-report.ts `formatPreflight`).
 */
import { describe, expect, it } from 'vitest';
import type { CapabilityLists } from '../../src/capabilities/digest.js';
import { formatCapabilities, runLists } from '../../src/cli/capabilities-report.js';
import { formatPreflight } from '../../src/cli/requirements-report.js';
import type { RequirementResult } from '../../src/requirements/check-requirements.js';

const npm = (file: string): CapabilityLists => ({ mcp_servers: [], hooks: [], permissions: [], scripts: [], network: [{ host: 'registry.npmjs.org', what: 'installs packages from a registry', files: [file], agents: ['cursor'] }], env: [] });
const tool = (name: string, ok: boolean): RequirementResult => ({ kind: 'tool', name, wanted: 'any version', found: ok ? 'on PATH' : null, ok, how_to_get: ok ? null : `install ${name}` });

describe('a run of several loadouts', () => {
  it('lists a host two loadouts reach for one reason once, with the files of both below their loadout', () => {
    const lists = runLists([
      { id: 'web', capabilities: npm('AGENTS.md') },
      { id: 'ci', capabilities: npm('rules/perf.md') },
    ]);
    expect(lists.network).toEqual([{ host: 'registry.npmjs.org', what: 'installs packages from a registry', files: ['ci/rules/perf.md', 'web/AGENTS.md'], agents: ['cursor'] }]);
    const printed = formatCapabilities('What bundle pair 1.0.0 can run for cursor', lists, ['cursor']);
    expect(printed.match(/registry\.npmjs\.org/gu)).toHaveLength(1);
  });

  it('keeps one loadout of several agents as its parts merged, files as the loadout names them', () => {
    expect(runLists([{ id: 'web', capabilities: npm('AGENTS.md') }, { id: 'web', capabilities: npm('AGENTS.md') }]).network).toEqual(npm('AGENTS.md').network);
  });

  it('says what each loadout requires under its own name, once per requirement though several agents repeat it', () => {
    const printed = formatPreflight([
      { id: 'web', version: '1.0.0', requirements: [tool('node', true)] },
      { id: 'web', version: '1.0.0', requirements: [tool('node', true)] },
      { id: 'ci', version: '2.1.0', requirements: [tool('node', true), tool('actionlint', false)] },
      { id: 'docs', version: '1.0.0', requirements: null },
    ]);
    expect(printed).toBe([
      'loadout: what web 1.0.0 requires is on this machine:',
      '  ok       tool node (any version): on PATH',
      'loadout: warning: ci 2.1.0 requires what is missing on this machine (the install goes on; --strict refuses; `loadout doctor` checks again):',
      '  ok       tool node (any version): on PATH',
      '  missing  tool actionlint (any version): not found; get it: install actionlint',
      '',
    ].join('\n'));
  });
});
