import { describe, expect, it } from 'vitest';
import { addressClassOf, cacheControlFor, contentTypeFor, isPublishedPath } from '../../src/tree-format/tree-headers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=60, must-revalidate';

describe('headers of a published path', () => {
  it('serves every raw file as plain text, whatever its extension, so submitted HTML, SVG or scripts never run', () => {
    for (const path of ['raw/x/1.0.0/page.html', 'raw/x/1.0.0/logo.SVG', 'raw/x/latest/run.js', 'raw/x/latest/data.json', 'raw/x/1.0.0/noext']) {
      expect(contentTypeFor(path), path).toBe('text/plain; charset=utf-8');
    }
  });

  it('gives the other addresses the types loadout serve sends, by extension in any case', () => {
    expect(contentTypeFor('api/loadouts/x.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('loadouts/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('download/x/cursor.zip')).toBe('application/zip');
    expect(contentTypeFor('assets/search.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('assets/site.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeFor('docs/')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('assets/font.woff2')).toBe('application/octet-stream');
    expect(contentTypeFor('LICENSE')).toBe('application/octet-stream');
  });

  it('serves the consumer CLI\'s package as gzip, revalidated (latest changes with each release)', () => {
    for (const path of ['cli/loadout-0.1.0.tgz', 'cli/loadout-latest.tgz']) {
      expect(contentTypeFor(path), path).toBe('application/gzip');
      expect(cacheControlFor(path), path).toBe(REVALIDATE);
    }
  });

  it('makes only pinned versions immutable; latest, records, zips, pages and catalogue documents revalidate', () => {
    expect(cacheControlFor('raw/x/1.0.0/AGENTS.md')).toBe(IMMUTABLE);
    expect(cacheControlFor('raw/x/1.0.0/skills/a/SKILL.md')).toBe(IMMUTABLE);
    // Files as installed are remade by each build's layout code: pinned by version, not immutable (issue 57 point 11).
    for (const path of ['raw/x/installed/1.0.0/codex/AGENTS.md', 'raw/x/installed/latest/cursor/rules/a.md']) {
      expect(addressClassOf(path), path).toBe('raw');
      expect(contentTypeFor(path), path).toBe('text/plain; charset=utf-8');
    }
    for (const path of ['raw/x/latest/AGENTS.md', 'raw/x/AGENTS.md', 'raw/x/installed/1.0.0/codex/AGENTS.md', 'api/loadouts/x.json', 'api/loadouts/x/versions.json', 'download/x/source.zip', 'loadouts/x/index.html', 'api/loadouts.json', 'api/search-index.json', 'api/v1/index.json', 'index.html']) {
      expect(cacheControlFor(path), path).toBe(REVALIDATE);
    }
    expect(['raw/x/1.0.0/A.md', 'download/x/a.zip', 'assets/s.js', 'api/loadouts/x.json', 'loadouts/x/index.html', 'api/loadouts.json', 'api/tags.json', 'index.html'].map(addressClassOf)).toEqual([
      'pinned-raw',
      'download',
      'asset',
      'record',
      'page',
      'catalogue',
      'catalogue',
      'catalogue',
    ]);
  });
});

describe('Agent Skills discovery (.well-known) paths', () => {
  it('publishes exactly the .well-known folders at the root and in a loadout\'s folder, and no other dot file', () => {
    for (const path of ['.well-known/agent-skills/index.json', '.well-known/skills/x/SKILL.md', 'loadouts/x/.well-known/agent-skills/x.zip']) expect(isPublishedPath(path), path).toBe(true);
    // Files as installed end with their install target, the agents' dot folders included (issue 57 point 11); nowhere else.
    for (const path of ['raw/x/installed/1.0.0/claude-code/.claude/skills/a/SKILL.md', 'raw/x/installed/latest/copilot/.github/mcp.json', 'raw/x@1-ab/installed/1.0.0/cursor/.cursor/rules/a.mdc']) expect(isPublishedPath(path), path).toBe(true);
    for (const path of ['raw/x/1.0.0/.claude/a.md', 'raw/x/installed/1.0.0/.claude/a.md', 'raw/x/installed/.1/codex/.a', 'raw/.x/installed/1.0.0/codex/.a', 'raw/x/installed/1.0.0/codex/..', 'api/x/installed/1.0.0/codex/.a']) expect(isPublishedPath(path), path).toBe(false);
    for (const path of ['.loadout-build.json', '.complete', '.WELL-KNOWN/agent-skills/index.json', 'api/.well-known/agent-skills/index.json', 'raw/x/latest/.well-known/a', 'loadouts/.x/.well-known/a', 'loadouts/x/y/.well-known/a', '.well-known/.hidden', 'loadouts/x/.well-known/skills/.git/config']) {
      expect(isPublishedPath(path), path).toBe(false);
    }
  });

  it('serves skill files as sandboxed text whatever their name, archives as zips, and the indexes as JSON documents of their loadout or of the catalogue', () => {
    for (const path of ['.well-known/skills/x/templates/page.html', 'loadouts/x/.well-known/skills/x/icon.svg', 'loadouts/x/.well-known/agent-skills/x/SKILL.md', 'loadouts/x/.well-known/skills/x/run.js', '.well-known/agent-skills/x/data.json']) {
      expect(contentTypeFor(path), path).toBe('text/plain; charset=utf-8');
      expect(addressClassOf(path), path).toBe('well-known');
    }
    expect(contentTypeFor('loadouts/x/.well-known/agent-skills/x.zip')).toBe('application/zip');
    // A zip deeper in a skill folder is a skill file, not an archive the build wrote.
    expect(contentTypeFor('loadouts/x/.well-known/skills/x/a.zip')).toBe('text/plain; charset=utf-8');
    expect(['loadouts/x/.well-known/agent-skills/index.json', 'loadouts/x/.well-known/skills/index.json', '.well-known/agent-skills/index.json', '.well-known/skills/index.json'].map(addressClassOf)).toEqual(['page', 'page', 'catalogue', 'catalogue']);
    expect(contentTypeFor('.well-known/agent-skills/index.json')).toBe('application/json; charset=utf-8');
    expect(cacheControlFor('loadouts/x/.well-known/agent-skills/x.zip')).toBe(REVALIDATE);
  });
});
