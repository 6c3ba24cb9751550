/** The scaffold's placeholders are found whatever the title, and only while unedited. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findPlaceholders, findTextPlaceholders, scaffoldLoadout } from '../../src/scaffold/scaffold.js';

describe('findPlaceholders', () => {
  it('finds the author, summary, description and highlight of an unedited scaffold, also after a new title', () => {
    const manifest = parse(scaffoldLoadout('rust-cli', '2026-11-25').get('loadout.yaml') ?? '') as Record<string, unknown>;
    expect(findPlaceholders(manifest).map((p) => p.pointer)).toEqual(['/author/name', '/summary', '/description', '/highlights/0']);
    const retitled = parse((scaffoldLoadout('rust-cli', '2026-11-25').get('loadout.yaml') ?? '').replaceAll('Rust Cli', 'Rust Command Lines')) as Record<string, unknown>;
    expect(findPlaceholders(retitled)).toHaveLength(4);
  });

  it('finds nothing in a filled-in manifest', () => {
    expect(findPlaceholders({ author: { name: 'Ada' }, summary: 'Instructions for Rust.', description: 'Describe nothing.', highlights: ['Fast'] })).toEqual([]);
  });
});

describe('findTextPlaceholders', () => {
  it('finds the line of the scaffold\'s AGENTS.md sentence, also after text was added around it, and nothing once it is replaced', () => {
    const agentsMd = scaffoldLoadout('rust-cli', '2026-11-25').get('AGENTS.md') ?? '';
    expect(findTextPlaceholders(agentsMd).map((p) => p.line)).toEqual([3]);
    expect(findTextPlaceholders(`# Rust\n\nUse clap.\n\n${agentsMd.split('\n').slice(2).join('\n')}`).map((p) => p.line)).toEqual([5]);
    expect(findTextPlaceholders('# Rust Cli\n\nUse clap. Write the instructions for humans in README.md.\n')).toEqual([]);
  });
});
