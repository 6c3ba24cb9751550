/**
 * The requirement checks (issue 56, point 4) against a PATH of scripts: a tool missing, a tool
 * too old, a tool in range, one whose version cannot be read, a variable missing or empty, an
 * MCP server missing or present; the version flags of the table (go `version`, java `-version`
 * on stderr).
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allMet, checkRequirements } from '../../src/requirements/check-requirements.js';
import { findOnPath } from '../../src/requirements/probe-tool.js';
import { pathOfScripts, prints } from './path-of-scripts.js';

describe('checkRequirements', () => {
  it('finds tools on PATH, reads their versions by their flags and judges them against the ranges', async () => {
    const bin = pathOfScripts({
      python3: prints('Python 3.9.18'),
      node: 'if [ "$1" = "--version" ]; then echo v20.11.1; else exit 3; fi',
      go: 'if [ "$1" = "version" ]; then echo "go version go1.21.5 linux/amd64"; else exit 3; fi',
      java: prints('openjdk version "21" 2023-09-19', 'stderr'),
      uv: prints('uv 0.4.18'),
      weird: prints('no numbers here'),
    });
    const results = await checkRequirements({ tools: ['python>=3.11', 'node>=20', 'go ^1.21', 'java >=17', 'uv', 'weird>=1', 'docker', 'node@20'] }, { environment: { PATH: bin } });
    expect(results.map((r) => [r.name, r.wanted, r.found, r.ok])).toEqual([
      ['python', '>=3.11', '3.9.18', false],
      ['node', '>=20', '20.11.1', true],
      ['go', '^1.21', '1.21.5', true],
      ['java', '>=17', '21.0.0', true],
      ['uv', 'any version', 'on PATH', true],
      ['weird', '>=1', 'version unknown', false],
      ['docker', 'any version', null, false],
      ['node@20', 'node@20', null, false],
    ]);
    expect(results[0]?.path).toBe(join(bin, 'python3'));
    expect(results[0]?.how_to_get).toBe(`${join(bin, 'python3')} is 3.9.18; https://www.python.org/downloads/ or \`uv python install 3.11\`; wanted (>=3.11)`);
    expect(results[1]?.how_to_get).toBeNull();
    expect(results[5]?.how_to_get).toContain('printed no version for weird --version');
    expect(results[6]?.how_to_get).toBe('https://docs.docker.com/get-docker/');
    expect(results[7]?.how_to_get).toContain('has "@" after the name "node"');
    expect(allMet(results)).toBe(false);
  });

  it('says how to get a tool the table does not know, and never runs a tool asked for without a range', async () => {
    const marker = join(pathOfScripts({}), 'ran');
    const bin = pathOfScripts({ quiet: `touch '${marker}'` });
    const results = await checkRequirements({ tools: ['quiet', 'zizmor>=1'] }, { environment: { PATH: bin } });
    expect(results.map((r) => [r.name, r.found, r.ok, r.how_to_get])).toEqual([
      ['quiet', 'on PATH', true, null],
      ['zizmor', null, false, 'install zizmor (>=1) and put it on PATH (see its documentation)'],
    ]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
  });

  it('stops a tool that does not answer within the time limit: version unknown', async () => {
    const sleep = await findOnPath('sleep', process.env['PATH']);
    const bin = pathOfScripts({ slow: `exec '${sleep ?? '/bin/sleep'}' 30` });
    const [result] = await checkRequirements({ tools: ['slow>=1'] }, { environment: { PATH: bin }, timeoutMs: 200 });
    expect(result).toMatchObject({ found: 'version unknown', ok: false });
    expect(result?.how_to_get).toContain('did not answer slow --version within 0.2 s');
  });

  it('stops a tool that prints without end at the cap, and reads the version from what it printed', async () => {
    const yes = await findOnPath('yes', process.env['PATH']);
    const bin = pathOfScripts({ flood: `exec '${yes ?? '/usr/bin/yes'}' 'flood 2.4.1'` });
    const [result] = await checkRequirements({ tools: ['flood>=2'] }, { environment: { PATH: bin } });
    expect(result).toMatchObject({ found: '2.4.1', ok: true });
  });

  it('checks variables set and not empty, never showing a value', async () => {
    const results = await checkRequirements({ env: ['TOKEN', 'EMPTY', 'ABSENT'] }, { environment: { TOKEN: 'secret-value', EMPTY: '' } });
    expect(results.map((r) => [r.kind, r.name, r.found, r.ok])).toEqual([
      ['env', 'TOKEN', 'set', true],
      ['env', 'EMPTY', 'empty', false],
      ['env', 'ABSENT', null, false],
    ]);
    expect(JSON.stringify(results)).not.toContain('secret-value');
    expect(results[2]?.how_to_get).toContain('set ABSENT in your environment');
  });

  it('checks each MCP server for each agent: brought, already there, or missing', async () => {
    const results = await checkRequirements({ mcp: ['postgres', 'context7'] }, {
      environment: {},
      mcp: [
        { agent: 'claude-code', servers: new Map([['postgres', 'brought by this install'], ['context7', '.mcp.json']]) },
        { agent: 'cursor', servers: new Map([['postgres', 'brought by this install']]) },
      ],
    });
    expect(results.map((r) => [r.name, r.agent, r.found, r.ok])).toEqual([
      ['postgres', 'claude-code', 'brought by this install', true],
      ['postgres', 'cursor', 'brought by this install', true],
      ['context7', 'claude-code', '.mcp.json', true],
      ['context7', 'cursor', null, false],
    ]);
    expect(results[3]?.how_to_get).toBe('add an MCP server named "context7" to cursor\'s MCP configuration, or install a loadout that brings it');
  });
});

describe('findOnPath', () => {
  it('takes the first executable regular file, skipping relative and empty entries and files that cannot run', async () => {
    const first = pathOfScripts({});
    writeFileSync(join(first, 'tool'), 'not executable\n');
    chmodSync(join(first, 'tool'), 0o644);
    const second = pathOfScripts({ tool: 'echo 1.0.0' });
    const third = pathOfScripts({ tool: 'echo 2.0.0' });
    expect(await findOnPath('tool', ['', '.', 'relative/bin', first, second, third].join(':'))).toBe(join(second, 'tool'));
    expect(await findOnPath('tool', undefined)).toBeUndefined();
    expect(await findOnPath('../tool', second)).toBeUndefined();
  });
});
