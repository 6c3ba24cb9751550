/**
 * `loadout import` of each source format (docs/authoring.md "Importing what you have"): what
 * each becomes, byte for byte, the file entries and install overrides derived from front
 * matter, the licence, the source and author from git, the generated files, and that the result
 * validates and verifies.
 */
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAdapter } from '../../src/adapters/generate.js';
import { commitAll, git, initRepo, makeTempDir } from '../helpers/temp.js';
import { listFiles, makeCatalogueRoot, readManifest, runImport, validateAndVerify, writeSource } from './helpers.js';

const MIT = 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software\n';
const skillMd = (name: string, description: string, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nDo the thing step by step.\n`;

/** Every imported file is on disk with exactly the source's bytes. */
function expectCopies(root: string, id: string, source: string, files: readonly { path: string; from: string | undefined }[]): void {
  for (const file of files) {
    if (file.from === undefined) continue;
    expect(readFileSync(join(root, 'loadouts', id, file.path)).equals(readFileSync(join(source, file.from))), file.path).toBe(true);
  }
}

describe('an Agent Skills folder', () => {
  it('becomes skills/<name>/ with every text file, SKILL.md as the skill and the rest as references, byte for byte', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      'SKILL.md': skillMd('pdf-forms', 'Fill PDF forms from structured data. Use when the user asks to fill a PDF form.', 'license: MIT\n'),
      'references/FORMS.md': '# Forms\n\nField names.\n',
      'scripts/fill.py': 'print("fill")\n',
      'nested/SKILL.md': skillMd('nested-one', 'A nested skill is a file of the outer one.'),
      'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]),
    });
    const result = await runImport(root, source);

    expect(result.id).toBe('pdf-forms');
    expect(result.written).toBe(true);
    expect(listFiles(join(root, 'loadouts/pdf-forms'))).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'loadout.yaml', 'skills/pdf-forms/SKILL.md', 'skills/pdf-forms/nested/SKILL.md', 'skills/pdf-forms/references/FORMS.md', 'skills/pdf-forms/scripts/fill.py']);
    expectCopies(root, 'pdf-forms', source, result.files);
    const manifest = readManifest(root, 'pdf-forms');
    expect(manifest.files.find((f) => f.path === 'skills/pdf-forms/SKILL.md')).toEqual({ path: 'skills/pdf-forms/SKILL.md', role: 'skill', skill: 'pdf-forms', description: 'Fill PDF forms from structured data. Use when the user asks to fill a PDF form.' });
    expect(manifest.files.filter((f) => f.role === 'reference').map((f) => f.path)).toEqual(['skills/pdf-forms/nested/SKILL.md', 'skills/pdf-forms/references/FORMS.md', 'skills/pdf-forms/scripts/fill.py']);
    expect(manifest.title).toBe('Pdf Forms');
    expect(manifest.summary).toBe('Fill PDF forms from structured data. Use when the user asks to fill a PDF form.');
    // The licence from the front matter; the security fields from the content.
    expect(manifest.license).toBe('MIT');
    expect(manifest.security.scripts).toEqual(['skills/pdf-forms/scripts/fill.py']);
    expect(result.skipped).toEqual([{ path: 'logo.png', reason: expect.stringContaining('is not UTF-8 text') }]);
    // Generated: an AGENTS.md (said so) and the adapters, exactly as the generator writes them.
    expect(result.todo).toEqual(expect.arrayContaining([expect.stringContaining('AGENTS.md was generated')]));
    expect(readFileSync(join(root, 'loadouts/pdf-forms/CLAUDE.md'), 'utf8')).toBe(generateAdapter('claude-code', 'Pdf Forms'));
    expect(await validateAndVerify(root, 'pdf-forms')).toEqual({ valid: true, verified: true, details: [] });
    expect(result.run.results.every((r) => r.status !== 'fail')).toBe(true);
  });

  it('names the skill after its front matter, and a folder of skills gives one skill each', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      'one/SKILL.md': skillMd('first-skill', 'The first skill of the folder, for tests.'),
      'two/SKILL.md': skillMd('second-skill', 'The second skill of the folder, for tests.'),
      'two/notes.md': '# Notes\n',
    });
    const result = await runImport(root, source, { id: 'two-skills' });
    expect(result.files.filter((f) => f.role === 'skill').map((f) => f.path)).toEqual(['skills/first-skill/SKILL.md', 'skills/second-skill/SKILL.md']);
    expect(result.files.find((f) => f.path === 'skills/second-skill/notes.md')?.from).toBe('two/notes.md');
    expect((await validateAndVerify(root, 'two-skills')).valid).toBe(true);
  });

  it('accepts the path of a SKILL.md as its folder', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': skillMd('by-file', 'Imported by naming its SKILL.md file.'), 'ref.md': '# Ref\n' });
    const result = await runImport(root, join(source, 'SKILL.md'));
    expect(result.files.map((f) => f.path)).toEqual(expect.arrayContaining(['skills/by-file/SKILL.md', 'skills/by-file/ref.md']));
  });
});

describe('Copilot instructions', () => {
  it('makes .github/copilot-instructions.md the AGENTS.md and each *.instructions.md a rule that installs back to Copilot', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      '.github/copilot-instructions.md': '# Project\n\nUse pnpm. Run the tests before you commit.\n',
      '.github/instructions/react.instructions.md': "---\ndescription: 'React conventions'\napplyTo: '**/*.tsx'\n---\n\n# React\n\nFunction components only.\n",
      '.github/instructions/no-description.instructions.md': "---\napplyTo: '**/*.py'\n---\n\n# Python\n\nType hints everywhere.\n",
    });
    const result = await runImport(root, source, { id: 'copilot-project' });
    expectCopies(root, 'copilot-project', source, result.files);
    const manifest = readManifest(root, 'copilot-project');
    expect(manifest.files.find((f) => f.path === 'AGENTS.md')).toMatchObject({ role: 'instructions' });
    expect(result.files.find((f) => f.path === 'AGENTS.md')?.from).toBe('.github/copilot-instructions.md');
    expect(manifest.files.find((f) => f.path === 'rules/react.md')).toEqual({ path: 'rules/react.md', role: 'rules', description: 'React conventions' });
    // Cursor would not apply a rule with neither description, globs nor alwaysApply: not installed there, and said so.
    expect(manifest.files.find((f) => f.path === 'rules/no-description.md')).toMatchObject({ role: 'rules', install_to: { cursor: null } });
    expect(result.todo).toEqual(expect.arrayContaining([expect.stringContaining('rules/no-description.md (from .github/instructions/no-description.instructions.md) is not installed for Cursor')]));
    expect(result.todo).not.toEqual(expect.arrayContaining([expect.stringContaining('AGENTS.md was generated')]));
    expect(await validateAndVerify(root, 'copilot-project')).toMatchObject({ valid: true });
    expect(result.run.results.find((r) => r.id === 'install-paths')?.status).toBe('pass');
  });

  it('keeps AGENTS.md when both exist, and says that copilot-instructions.md was left out', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'AGENTS.md': '# Agents\n\nThe real instructions.\n', '.github/copilot-instructions.md': '# Copilot\n' });
    const result = await runImport(root, source, { id: 'both' });
    expect(readFileSync(join(root, 'loadouts/both/AGENTS.md'), 'utf8')).toBe('# Agents\n\nThe real instructions.\n');
    expect(result.skipped).toEqual(expect.arrayContaining([{ path: '.github/copilot-instructions.md', reason: expect.stringContaining('merge the two into AGENTS.md by hand') }]));
  });
});

describe('agent files', () => {
  it('makes Copilot *.agent.md and Claude Code .claude/agents/*.md subagents', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      '.github/agents/Reviewer.agent.md': '---\nname: Reviewer\ndescription: Reviews pull requests for correctness.\n---\n\nReview carefully.\n',
      '.claude/agents/test-writer.md': '---\nname: test-writer\ndescription: Writes the missing tests.\ntools: Read, Write\n---\n\nWrite tests.\n',
      LICENSE: MIT,
    });
    const result = await runImport(root, source, { id: 'agents' });
    expectCopies(root, 'agents', source, result.files);
    expect(readManifest(root, 'agents').files.filter((f) => f.role === 'subagent')).toEqual([
      { path: 'agents/test-writer.md', role: 'subagent', description: 'Writes the missing tests.' },
      { path: 'agents/reviewer.md', role: 'subagent', description: 'Reviews pull requests for correctness.' },
    ]);
    expect(result.skipped).toEqual([{ path: 'LICENSE', reason: 'was read for the licence only' }]);
    expect(await validateAndVerify(root, 'agents')).toMatchObject({ valid: true, verified: true });
  });
});

describe('Cursor rules', () => {
  it('makes each .cursor/rules/*.mdc a rule, left out for Copilot when it has no applyTo', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      '.cursor/rules/typescript.mdc': '---\ndescription: TypeScript style\nglobs: ["**/*.ts"]\nalwaysApply: false\n---\n\n# TypeScript\n\nNo any.\n',
      '.cursor/rules/both.mdc': '---\ndescription: Both agents\nglobs: "**/*.md"\napplyTo: "**/*.md"\n---\n\n# Docs\n',
      'LICENSE.md': MIT,
    });
    const result = await runImport(root, source, { id: 'cursor-rules' });
    expectCopies(root, 'cursor-rules', source, result.files);
    const manifest = readManifest(root, 'cursor-rules');
    expect(manifest.files.find((f) => f.path === 'rules/typescript.md')).toEqual({ path: 'rules/typescript.md', role: 'rules', description: 'TypeScript style', install_to: { copilot: null } });
    expect(manifest.files.find((f) => f.path === 'rules/both.md')).toEqual({ path: 'rules/both.md', role: 'rules', description: 'Both agents' });
    expect(result.todo).toEqual(expect.arrayContaining([expect.stringContaining('rules/typescript.md (from .cursor/rules/typescript.mdc) is not installed for Copilot: it has no applyTo front matter')]));
    expect(await validateAndVerify(root, 'cursor-rules')).toMatchObject({ valid: true, verified: true });
  });

  it('gives two rules of the same name from two formats two paths', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      '.cursor/rules/style.mdc': '---\ndescription: Style\n---\n\n# Cursor style\n',
      '.github/instructions/style.instructions.md': '---\ndescription: Style\napplyTo: "**"\n---\n\n# Copilot style\n',
    });
    const result = await runImport(root, source, { id: 'same-name' });
    expect(result.files.filter((f) => f.role === 'rules').map((f) => [f.path, f.from])).toEqual([
      ['rules/style.md', '.github/instructions/style.instructions.md'],
      ['rules/style-2.md', '.cursor/rules/style.mdc'],
    ]);
    expect((await validateAndVerify(root, 'same-name')).valid).toBe(true);
  });
});

describe('a Claude Code plugin', () => {
  it('takes name, version, description, author and licence from plugin.json, agents, skills and .mcp.json from its folders, and leaves commands out', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'db-tools', version: '2.3.1', description: 'Database tools for Claude Code: a migration skill, a reviewer agent and a Postgres MCP server.', author: { name: 'Ada Lovelace', url: 'https://example.com/ada' }, license: 'Apache-2.0', repository: 'https://github.com/ada/db-tools' }, null, 2),
      'agents/sql-reviewer.md': '---\nname: sql-reviewer\ndescription: Reviews SQL migrations.\n---\n\nReview SQL.\n',
      'skills/write-migration/SKILL.md': skillMd('write-migration', 'Write a reversible database migration.'),
      '.mcp.json': `${JSON.stringify({ mcpServers: { postgres: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/db'] } } }, null, 2)}\n`,
      'commands/deploy.md': '# Deploy\n',
      'README.md': '# db-tools\n',
    });
    const result = await runImport(root, source);
    expect(result.id).toBe('db-tools');
    expectCopies(root, 'db-tools', source, result.files);
    const manifest = readManifest(root, 'db-tools');
    expect(manifest).toMatchObject({ title: 'Db Tools', version: '2.3.1', license: 'Apache-2.0', author: { name: 'Ada Lovelace', url: 'https://example.com/ada' }, source: { repo: 'https://github.com/ada/db-tools' }, summary: 'Database tools for Claude Code: a migration skill, a reviewer agent and a Postgres MCP server.' });
    expect(manifest.files.map((f) => [f.path, f.role])).toEqual(expect.arrayContaining([['agents/sql-reviewer.md', 'subagent'], ['skills/write-migration/SKILL.md', 'skill'], ['mcp/db-tools.json', 'mcp']]));
    expect(result.files.find((f) => f.path === 'mcp/db-tools.json')?.from).toBe('.mcp.json');
    expect(manifest.requires?.mcp).toEqual(['postgres']);
    expect(result.skipped).toEqual(expect.arrayContaining([{ path: 'commands/deploy.md', reason: expect.stringContaining("one of the plugin's commands") }, { path: 'README.md', reason: expect.stringContaining('is in no format loadout import reads') }]));
    expect((await validateAndVerify(root, 'db-tools')).valid).toBe(true);
  });
});

describe('an AGENTS.md', () => {
  it('becomes the loadout\'s AGENTS.md, byte for byte', async () => {
    const root = makeCatalogueRoot();
    const text = '# My project\r\n\r\nWindows line endings and a BOM stay as they are.\r\n';
    const source = writeSource({ 'AGENTS.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) });
    const result = await runImport(root, join(source, 'AGENTS.md'), { id: 'just-agents' });
    expect(readFileSync(join(root, 'loadouts/just-agents/AGENTS.md')).equals(readFileSync(join(source, 'AGENTS.md')))).toBe(true);
    expect(result.files.map((f) => f.path)).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);
    expect((await validateAndVerify(root, 'just-agents')).valid).toBe(true);
  });
});

describe('licence', () => {
  it('reads the licence from a LICENSE file, in the folder or above it, and keeps one inside a skill as a file of the skill', async () => {
    const root = makeCatalogueRoot();
    const bsd = 'BSD 3-Clause License\n\nRedistribution and use in source and binary forms, with or without modification, are permitted...\n3. Neither the name of the copyright holder nor the names of its contributors may be used...\n';
    const source = writeSource({ 'SKILL.md': skillMd('licensed', 'A skill with a licence file beside it.'), LICENSE: bsd });
    const result = await runImport(root, source);
    expect(readManifest(root, 'licensed').license).toBe('BSD-3-Clause');
    expect(result.files.find((f) => f.path === 'skills/licensed/LICENSE')).toEqual({ path: 'skills/licensed/LICENSE', role: 'reference', from: 'LICENSE' });
    const above = writeSource({ LICENSE: 'ISC License\n\nPermission to use, copy, modify, and/or distribute this software for any purpose\n', 'skills/above/SKILL.md': skillMd('above', 'A skill whose licence file is two folders up.') });
    await runImport(root, join(above, 'skills/above'));
    expect(readManifest(root, 'above').license).toBe('ISC');
    expect(result.run.results.find((r) => r.id === 'licence')?.status).toBe('pass');
  });

  it('writes UNKNOWN, fails the licence check and says what to fill in when nothing names one', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': skillMd('unlicensed', 'A skill with no licence anywhere near it.') });
    const result = await runImport(root, join(source, 'SKILL.md'));
    expect(readManifest(root, 'unlicensed').license).toBe('UNKNOWN');
    expect(result.todo).toEqual(expect.arrayContaining([expect.stringContaining('license is "UNKNOWN"')]));
    const checked = await validateAndVerify(root, 'unlicensed');
    expect(checked.valid).toBe(true);
    expect(checked.verified).toBe(false);
    expect(result.run.results.find((r) => r.id === 'licence')?.status).toBe('fail');
  });
});

describe('source and credits from git', () => {
  it('records the repository (credentials stripped), the path and the commit, and the GitHub owner as author', async () => {
    const repo = makeTempDir('loadout-import-repo-');
    initRepo(repo);
    writeSource({ 'skills/git-skill/SKILL.md': skillMd('git-skill', 'A skill that lives in a git repository.'), LICENSE: 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n' }, repo);
    git(repo, ['remote', 'add', 'origin', 'https://someone:ghp_secrettoken@github.com/acme/agent-skills.git']);
    const commit = commitAll(repo, 'skills');
    const root = makeCatalogueRoot();
    await runImport(root, join(repo, 'skills/git-skill'));
    const manifest = readManifest(root, 'git-skill');
    expect(manifest.source).toEqual({ repo: 'https://github.com/acme/agent-skills', path: 'skills/git-skill', commit });
    expect(manifest.author).toEqual({ name: 'acme', url: 'https://github.com/acme' });
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(root, 'loadouts/git-skill/loadout.yaml'), 'utf8')).not.toContain('secrettoken');
  });
});

describe('never overwrites, and --dry-run writes nothing', () => {
  it('refuses an id whose folder exists (as a folder or a link), leaving it as it was', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': skillMd('taken', 'A skill whose id is taken already.') });
    await runImport(root, source);
    const before = readFileSync(join(root, 'loadouts/taken/loadout.yaml'));
    await expect(runImport(root, source)).rejects.toThrow('loadouts/taken exists already; nothing was written');
    expect(readFileSync(join(root, 'loadouts/taken/loadout.yaml')).equals(before)).toBe(true);
    symlinkSync(makeTempDir(), join(root, 'loadouts/linked'));
    await expect(runImport(root, source, { id: 'linked' })).rejects.toThrow('loadouts/linked exists already');
  });

  it('--dry-run checks the loadout in memory and writes nothing', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': skillMd('dry', 'A skill imported in a dry run.', 'license: MIT\n') });
    const result = await runImport(root, source, { dryRun: true });
    expect(result.written).toBe(false);
    expect(listFiles(root)).toEqual([]);
    expect(result.run.results.every((r) => r.status !== 'fail')).toBe(true);
    expect(result.manifestText).toContain('id: dry');
  });

  it('says so when the folder holds nothing to import', async () => {
    const root = makeCatalogueRoot();
    await expect(runImport(root, writeSource({ 'README.md': '# Nothing\n' }))).rejects.toThrow('found nothing to import');
    expect(listFiles(root)).toEqual([]);
  });
});

describe('an author nobody named', () => {
  it('is the placeholder that the listing check refuses, naming what to fill in, and --author fills it', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': skillMd('anonymous', 'A skill whose author nobody named.', 'license: MIT\n') });
    const result = await runImport(root, source, { author: null });
    expect(result.todo.join('\n')).toContain('author is "Your Name"');
    const checked = await validateAndVerify(root, 'anonymous');
    expect(checked.valid).toBe(false);
    expect(checked.details.join('\n')).toMatch(/\/author\/name is still a placeholder .*\(expected your name, or your organisation's\)/u);
    const named = await runImport(makeCatalogueRoot(), source, { author: 'Ada Lovelace' });
    expect(named.run.results.every((r) => r.status !== 'fail')).toBe(true);
  });
});
