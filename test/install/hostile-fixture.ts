/**
 * A hostile built tree for the install tests: a real catalogue with `kit` 1.0.0 (AGENTS.md,
 * CLAUDE.md, GEMINI.md, rules/style.md), built once, copied into a fresh "site" folder per
 * test, whose `versions.json` a test then rewrites as an attacker would. The site holds
 * `dist/` and, beside it (outside the catalogue), `secret.txt`. A real HTTP server can
 * serve the site with the catalogue at `/dist`, recording every address asked for.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { copyDereferenced } from '../helpers/tree.js';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import type { VersionsDocument } from '../../src/tree/render/loadout-output.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** The content of the file outside the catalogue that no install may read. */
export const SECRET = 'SECRET: outside the catalogue\n';

export const sha = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Builds the clean catalogue once; returns its dist folder and a remover. */
export async function buildCleanDist(): Promise<{ dist: string; remove(): void }> {
  const root = mkdtempSync(join(tmpdir(), 'loadout-hostile-'));
  initRepo(root);
  const rule = { path: 'rules/style.md', role: 'rules', content: '---\ndescription: Style\nglobs: ["**/*.ts"]\napplyTo: "**/*.ts"\nalwaysApply: false\n---\n\nRule.\n' };
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.0.0', files: [...baseFiles('Kit', '# Kit\n\nOne.\n'), rule] });
  commitAll(root, 'kit 1.0.0');
  const dist = join(root, 'dist');
  await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
  return { dist, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A fresh site for one test: `site/dist` (a copy of `cleanDist`) and `site/secret.txt`. */
export interface Site {
  site: string;
  dist: string;
  /** The parsed versions document of kit; `save()` writes it back. */
  doc: VersionsDocument;
  save(): void;
  /** The file entry of `path` in version 1.0.0. */
  file(path: string): VersionsDocument['versions'][number]['files'][number];
}

export function makeSite(cleanDist: string): Site {
  const site = makeTempDir('loadout-site-');
  const dist = join(site, 'dist');
  // `--out` is a link to the tree the build switched to: copy the tree, not the link.
  copyDereferenced(cleanDist, dist);
  writeFileSync(join(site, 'secret.txt'), SECRET);
  const docPath = join(dist, 'api/loadouts/kit/versions.json');
  const doc = JSON.parse(readFileSync(docPath, 'utf8')) as VersionsDocument;
  return {
    site,
    dist,
    doc,
    save: () => writeFileSync(docPath, `${JSON.stringify(doc, null, 2)}\n`),
    file(path) {
      const found = doc.versions[0]?.files.find((f) => f.path === path);
      if (found === undefined) throw new Error(`no ${path} in the fixture`);
      return found;
    },
  };
}

/** A project folder that is a git repository, as most are. */
export function makeProject(): string {
  const project = makeTempDir('loadout-project-');
  initRepo(project);
  return project;
}

/** Every file and folder of `dir` except `.git`, relative, sorted. */
export function listProject(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => p !== '.git' && !p.startsWith(`.git/`)).sort();
}

/** A site served over HTTP on 127.0.0.1: `base` is the catalogue's URL (`…/dist`); `requests` every path asked for. */
export interface ServedSite {
  base: string;
  origin: string;
  requests: string[];
  /** Answers `path` with a redirect to `location` instead of a file. */
  redirect(path: string, location: string): void;
}

/** Serves the folder `root` (files only, paths decoded once), closed when the test ends. */
export async function serveSite(root: string): Promise<ServedSite> {
  const requests: string[] = [];
  const redirects = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    const pathname = url.split('?')[0] ?? '/';
    const location = redirects.get(pathname);
    if (location !== undefined) {
      res.writeHead(302, { location }).end();
      return;
    }
    readFile(join(root, decodeURIComponent(pathname))).then(
      (data) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data),
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  return { base: `${origin}/dist`, origin, requests, redirect: (path, location) => redirects.set(path, location) };
}

/** Writes `content` at `dist/raw/kit/1.0.0/<path>` and points the entry of `path` at it. */
export function replaceRaw(s: Site, path: string, content: string): void {
  const file = join(s.dist, 'raw/kit/1.0.0', path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  const entry = s.file(path);
  entry.sha256 = sha(content);
  entry.bytes = Buffer.byteLength(content);
}
