/**
 * What a newcomer tripped on in the README and the guides (issue 57, points 10 and 14): the
 * tour's commands answer on their first call in a fresh clone (`npx loadout` spent a minute
 * installing the clone into npx's cache first), every command of the installer names the
 * project it installs into (run from the clone, the consumer's command installed into the
 * catalogue), the tour's server does not take the port of the `npm start` it follows without
 * saying so, and the guides cite no document the repository does not hold (DESIGN.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The shell blocks of a Markdown text, each as its lines. */
function shellBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gmu)].map((m) => (m[1] ?? '').split('\n').filter((line) => line !== ''));
}

/** The commands of a shell line (split at `&&`, `;` and `|`), comments dropped. */
const commandsOf = (line: string): string[] => line.replace(/\s#.*$|^#.*$/u, '').split(/&&|;|\|/u).map((c) => c.trim()).filter((c) => c !== '');

const INSTALLER = /\b(?:install|update|uninstall|status|outdated|recover)\b/u;

describe('the README\'s tour', () => {
  const readme = read('README.md');
  const blocks = shellBlocks(readme);
  const commands = blocks.flat().flatMap(commandsOf);

  it('runs loadout as node bin/loadout, which answers at once, never npx loadout, whose first call installs the clone into npx\'s cache', () => {
    expect(commands.filter((c) => /^npx (?:-y )?loadout\b/u.test(c))).toEqual([]);
    expect(commands.filter((c) => c.startsWith('node bin/loadout ')).length).toBeGreaterThanOrEqual(10);
    expect(readme).toMatch(/first `npm ci` takes a few minutes: it compiles\s+better-sqlite3/u);
  });

  it('names the project with --dir in every command of the installer', () => {
    const installer = commands.filter((c) => /^(?:node bin\/loadout|npx (?:-y )?loadout|npx -y \S+\.tgz) /u.test(c) && INSTALLER.test(c.split(' ').slice(2, 4).join(' ')));
    expect(installer.length).toBeGreaterThanOrEqual(5);
    expect(installer.filter((c) => !/ --dir \S+/u.test(c))).toEqual([]);
  });

  it('serves on npm start\'s port only in a block that says to stop npm start first', () => {
    const serving = blocks.filter((block) => block.some((line) => commandsOf(line).some((c) => / serve\b/u.test(c))));
    expect(serving.length).toBeGreaterThan(0);
    for (const block of serving) {
      const port = /serve\b.*--port (\d+)/u.exec(block.join('\n'))?.[1] ?? '8787';
      if (port === '8787') expect(block.join('\n'), block.join('\n')).toMatch(/stop npm start first/u);
    }
  });
});

describe('the guides', () => {
  it('cite DESIGN.md, which the repository does not hold, only where the architecture guide says so', () => {
    const guides = ['README.md', 'SECURITY.md', ...readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const citing: string[] = [];
    for (const path of guides) {
      const text = path === 'docs/architecture.md' ? read(path).replace(/Source\s+comments cite "DESIGN\.md"[\s\S]*?not\s+in this repository;/u, '') : read(path);
      text.split('\n').forEach((line, i) => line.includes('DESIGN.md') && citing.push(`${path}:${i + 1}: ${line}`));
    }
    expect(citing).toEqual([]);
  });
});
