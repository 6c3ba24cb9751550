/**
 * A reference to a file that is in the folder but not declared in loadout.yaml is named as the
 * listing check names the file, "not declared in loadout.yaml" (issue 57, point 15: it said the
 * file "is not a file of the loadout", for six agents, while the file was there).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import { baseFiles, writeLoadout } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';

describe('references check: a file present but not declared', () => {
  it('names the reference once, in the listing check\'s words', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'k', files: baseFiles('Test k', '# Test k\n\nSee [the notes](notes.md).\n') });
    writeFileSync(join(root, 'loadouts/k/notes.md'), '# Notes\n');
    const [run] = await checkCatalogue({ root }, []);
    const details = (id: string): string[] => run?.results.find((r) => r.id === id)?.details ?? [];
    expect(details('listing')).toEqual([expect.stringMatching(/^loadouts\/k\/notes\.md:1: present but not declared in loadout\.yaml files/u)]);
    expect(details('references')).toEqual([
      'loadouts/k/AGENTS.md:3: link "notes.md" does not resolve once published: notes.md is present but not declared in loadout.yaml files (expected a files[] entry for it; an undeclared file is neither published nor installed)',
    ]);
  });

  it('still says a missing file is not a file of the loadout', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'k', files: baseFiles('Test k', '# Test k\n\nSee [the notes](notes.md).\n') });
    const [run] = await checkCatalogue({ root }, []);
    expect(run?.results.find((r) => r.id === 'references')?.details).toEqual(['loadouts/k/AGENTS.md:3: link "notes.md" does not resolve: notes.md is not a file of the loadout (expected an existing file)']);
  });
});
