/**
 * A project that installs loadouts, on a bare git remote, for the update bot's tests
 * (bot/update-pull-request.ts and the update Action): `kit` 1.0.0 installed for Claude Code from
 * the built catalogue of test/install/lifecycle-fixture.ts, which also publishes 1.1.0.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { commitAll, git, makeTempDir } from '../helpers/temp.js';

/** The project's repository. */
export interface ProjectRepository {
  /** The working tree, on `main`, with `origin`. */
  clone: string;
  /** The bare repository `origin` points at. */
  remote: string;
  /** The project folder (`app/` of the clone), which holds the lock. */
  project: string;
}

/** A project in `app/` of a clone of a bare remote, with kit 1.0.0 from `dist` installed, committed and pushed to `main`. */
export async function makeProjectRepository(dist: string): Promise<ProjectRepository> {
  const dir = makeTempDir('loadout-update-project-');
  const remote = join(dir, 'remote.git');
  const clone = join(dir, 'clone');
  mkdirSync(remote);
  git(remote, ['init', '-q', '--bare', '-b', 'main']);
  git(dir, ['clone', '-q', remote, clone]);
  git(clone, ['checkout', '-q', '-b', 'main']);
  const project = join(clone, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'README.md'), '# App\n');
  const install = await runCli(['install', 'kit', '--agent', 'claude-code', '--from', dist, '--version', '1.0.0', '--dir', project], project);
  if (install.code !== 0) throw new Error(install.stderr);
  commitAll(clone, 'Install kit 1.0.0', '2026-11-01T10:00:00Z');
  git(clone, ['push', '-q', 'origin', 'main']);
  return { clone, remote, project };
}
