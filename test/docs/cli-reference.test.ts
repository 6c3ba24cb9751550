/**
 * The reference pages cover what they say they cover, and nothing a reader needs lives outside
 * the repository (issue 36, point 15): docs/cli.md names every option of every consumer
 * command (read from the commands as declared) and every signing variable; the README's guide
 * table lists every guide; the README points at no file outside the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { declareConsumerCommands } from '../../src/cli/consumer-commands.js';
import { SIGNING_EXPIRES_ENV, SIGNING_KEY_ENV, SIGNING_KEY_FILE_ENV, SIGNING_ROTATION_ENV } from '../../src/tree/render/signed-snapshot.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/cli.md', () => {
  const reference = read('docs/cli.md');

  it('names every option of every consumer command', () => {
    const program = new Command('loadout');
    declareConsumerCommands(program, { code: 0 }, () => undefined, () => undefined, '0.0.0');
    const missing: string[] = [];
    for (const command of program.commands) {
      for (const option of command.options) if (option.long !== undefined && !reference.includes(option.long)) missing.push(`${command.name()} ${option.long}`);
    }
    expect(program.commands.length).toBeGreaterThanOrEqual(6);
    expect(missing).toEqual([]);
  });

  it('names every signing variable', () => {
    for (const variable of [SIGNING_KEY_ENV, SIGNING_KEY_FILE_ENV, SIGNING_EXPIRES_ENV, SIGNING_ROTATION_ENV]) expect(reference).toContain(`\`${variable}\``);
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('lists every guide in its guide table', () => {
    const guides = readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md'));
    expect(guides.filter((g) => !readme.includes(`](docs/${g})`))).toEqual([]);
  });

  it('points at nothing outside the repository', () => {
    expect(readme).not.toMatch(/\.\.\/shared|\]\(\.\.\//u);
  });
});
