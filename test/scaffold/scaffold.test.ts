/** The scaffold's placeholders are found whatever the title, and only while unedited. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findPlaceholders, scaffoldLoadout } from '../../src/scaffold/scaffold.js';

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
