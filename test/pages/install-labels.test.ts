/**
 * Labels that say what they mean on a loadout page (issue 36, point 17): an agent's tab says
 * what installing does for that agent (not "native" on a tab that lists manual steps), and the
 * security line has one pair of parentheses. Read from the page a real build writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installLabel } from '../../src/pages/loadout-install.js';
import { makeTempDir } from '../helpers/temp.js';
import { buildLifecycleCatalogue } from '../install/lifecycle-fixture.js';

describe('loadout page labels', () => {
  it('labels each tab by what installing does', () => {
    expect(installLabel('native', 0)).toEqual({ text: 'installs in full', badge: 'ok' });
    expect(installLabel('adapter', 0)).toEqual({ text: 'installs in full, with an adapter', badge: 'ok' });
    expect(installLabel('native', 2)).toEqual({ text: 'installs, 2 manual steps left', badge: 'note' });
    expect(installLabel('unsupported', 0)).toEqual({ text: 'not supported', badge: 'bad' });
  });

  it('on a built page: a tab with manual steps (Antigravity: its subagent) does not say native, one without says it installs in full, and the scan line has one pair of parentheses', async () => {
    const { dist } = await buildLifecycleCatalogue(makeTempDir('loadout-labels-'));
    const html = readFileSync(join(dist, 'loadouts/kit/index.html'), 'utf8');
    const tab = (agent: string): RegExpExecArray | null => new RegExp(`<h3 id="heading-${agent}">[^<]+ <span class="badge (\\w+)">([^<]*)<\\/span><\\/h3>[\\s\\S]*?<\\/section>`, 'u').exec(html);
    const antigravity = tab('antigravity-cli');
    expect(antigravity?.[2]).toMatch(/^installs, \d+ manual steps? left$/u);
    expect(antigravity?.[1]).toBe('note');
    expect(antigravity?.[0]).toContain('Manual steps');
    // Codex's rules, MCP servers and subagent all land in files now.
    expect(tab('codex')?.[2]).toBe('installs in full');
    expect(html).not.toMatch(/class="badge \w+">native</u);
    const scan = /<li>Security scan: ([^<]*)<\/li>/u.exec(html)?.[1] ?? '';
    expect(scan).toBe('clean, by loadout verify (safety check)');
    expect(scan.match(/\(/gu)).toHaveLength(1);
  });
});
