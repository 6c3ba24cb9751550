/**
 * The command hints print (src/cli/invocation.ts, issue 36 point 7): as npx was given it, read
 * from npx's own folder when npx had it positionally (`npx -y <url>`), from
 * `npm_config_package` with `--package`; `npx loadout` for an installed package; else `loadout`.
 * Only consumer commands are rewritten.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationOf, withInvocation } from '../../src/cli/invocation.js';

const npxFolder = join('/home/u/.npm/_npx/4f1c2b');
const script = join(npxFolder, 'node_modules/loadout-cli/dist/loadout.mjs');
const reader = (files: Record<string, string>) => (path: string): string => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT ${path}`);
  return text;
};

describe('the command as the user ran it', () => {
  it('reads the spec npx was given from its folder, or from --package', () => {
    const url = 'https://catalogue.example/cli/loadout-latest.tgz';
    const files = { [join(npxFolder, 'package.json')]: JSON.stringify({ dependencies: { 'loadout-cli': url }, _npx: { packages: [url] } }) };
    expect(invocationOf({ env: { npm_command: 'exec' }, script, readText: reader(files) })).toBe(`npx -y ${url}`);
    expect(invocationOf({ env: { npm_config_package: '/tmp/loadout-0.1.0.tgz' }, script: '/x/loadout.mjs', readText: reader({}) })).toBe('npx -y --package=/tmp/loadout-0.1.0.tgz -- loadout');
    expect(invocationOf({ env: { npm_config_package: 'loadout-cli@0.1.0' }, script: '/x/loadout.mjs', readText: reader({}) })).toBe('npx -y loadout-cli@0.1.0');
  });

  it('falls back to npx loadout for an installed package and to loadout otherwise, also when npx\'s folder cannot be read', () => {
    expect(invocationOf({ env: { npm_command: 'exec' }, script: '/project/node_modules/.bin/loadout', readText: reader({}) })).toBe('npx loadout');
    expect(invocationOf({ env: { npm_command: 'exec' }, script, readText: reader({}) })).toBe('npx loadout');
    expect(invocationOf({ env: {}, script: '/usr/local/bin/loadout', readText: reader({}) })).toBe('loadout');
  });

  it('rewrites consumer commands only', () => {
    const prefix = 'npx -y https://c.example/cli/loadout-latest.tgz';
    expect(withInvocation('Check the id: `loadout search <words>` lists them; `loadout update` moves.', prefix)).toBe(`Check the id: \`${prefix} search <words>\` lists them; \`${prefix} update\` moves.`);
    expect(withInvocation('Run `loadout build` first.', prefix)).toBe('Run `loadout build` first.');
    expect(withInvocation('`loadout status`', 'loadout')).toBe('`loadout status`');
  });
});
