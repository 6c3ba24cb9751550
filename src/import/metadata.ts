/**
 * What `loadout import` learns about the content beyond its files: the licence (a LICENSE
 * file, or a `license` field of the front matter or of `plugin.json`) and, when the folder is
 * inside a git repository, where it comes from (`source` and, for GitHub, the author that
 * the record's `credits` then name).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { LICENCES, type Licence } from '../catalogue/vocabulary.js';

const run = promisify(execFile);

/** Names of licence files, as GitHub's licence detection looks for them. */
const LICENCE_FILES = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE', 'LICENCE.md', 'COPYING'];

/** Folders above the imported one searched for a licence file when it is not in a git repository. */
const ANCESTORS_OUTSIDE_GIT = 2;

/**
 * Phrases that identify each accepted licence in its text (the SPDX licence texts' own
 * titles or first sentences), tried in this order.
 */
const LICENCE_TEXTS: [Licence, RegExp][] = [
  ['Apache-2.0', /Apache License[\s,]+Version 2\.0/iu],
  ['MPL-2.0', /Mozilla Public License,? (?:Version|v\.?) ?2\.0/iu],
  ['CC-BY-4.0', /Attribution 4\.0 International/iu],
  ['CC0-1.0', /CC0 1\.0 Universal/iu],
  ['Unlicense', /This is free and unencumbered software released into the public domain/iu],
  ['ISC', /^[^\S\n\r\u2028\u2029]*ISC License|Permission to use, copy, modify, and\/or distribute this software for any purpose/imu],
  ['BSD-3-Clause', /Redistribution and use in source and binary forms[\s\S]*Neither the name/iu],
  ['BSD-2-Clause', /Redistribution and use in source and binary forms/iu],
  ['MIT', /\bMIT License\b|Permission is hereby granted, free of charge, to any person obtaining a copy/iu],
];

/** The accepted licence a licence text is, or undefined. Pure. */
export function licenceOfText(text: string): Licence | undefined {
  return LICENCE_TEXTS.find(([, pattern]) => pattern.test(text))?.[0];
}

/** The accepted licence an SPDX-like id names (`mit`, `Apache 2.0` → `Apache-2.0`), or undefined. Pure. */
export function licenceOfId(id: string): Licence | undefined {
  const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/gu, '');
  return LICENCES.find((l) => squash(l) === squash(id));
}

/** A licence file found, and the licence it is. */
export interface FoundLicence {
  licence: Licence | undefined;
  /** The file read. */
  file: string;
}

/**
 * The licence file of the folder `root`: in it, else in the folders above it up to the git
 * repository's root (or {@link ANCESTORS_OUTSIDE_GIT} folders up outside git). Only licence
 * files are read there.
 */
export async function findLicenceFile(root: string, gitRoot: string | undefined): Promise<FoundLicence | undefined> {
  let dir = root;
  for (let up = 0; ; up++) {
    for (const name of LICENCE_FILES) {
      const file = join(dir, name);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text !== undefined) return { licence: licenceOfText(text), file };
    }
    const atTop = gitRoot !== undefined ? dir === gitRoot || !dir.startsWith(gitRoot + sep) : up >= ANCESTORS_OUTSIDE_GIT;
    if (atTop || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

/** Where content in a git repository comes from. */
export interface GitOrigin {
  /** The repository's root folder. */
  root: string;
  /** An https address of the repository (credentials removed), or undefined when the remote is not a web address. */
  repo: string | undefined;
  /** The imported folder inside the repository (`skills/x`), or undefined at its root. */
  path: string | undefined;
  /** HEAD's commit. */
  commit: string | undefined;
  /** The GitHub owner, when the remote is on github.com. */
  githubOwner: string | undefined;
}

/**
 * The web address of a git remote URL: `git@github.com:o/r.git`, `ssh://git@host/o/r`,
 * `https://user:token@host/o/r.git` → `https://host/o/r`. Any user name or password is
 * dropped, so no credential ever reaches `loadout.yaml`. Undefined for local paths and other
 * schemes. Pure.
 */
export function webAddressOfRemote(remote: string): string | undefined {
  const trimmed = remote.trim();
  const scp = /^(?:[\w.-]+@)?([\w.-]+\.[a-z]{2,}):(?!\/)([^\s]+?)(?:\.git)?\/?$/iu.exec(trimmed);
  if (scp !== null && !trimmed.includes('://')) return `https://${scp[1] ?? ''}/${scp[2] ?? ''}`;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(url.protocol) || url.hostname === '') return undefined;
  const path = url.pathname.replace(/\.git\/?$/u, '').replace(/(?<!\/)\/+$/u, '');
  if (path === '') return undefined;
  return `https://${url.hostname}${path}`;
}

/** The git origin of the folder `dir`, or undefined when it is not in a git repository (or git is missing). */
export async function gitOriginOf(dir: string): Promise<GitOrigin | undefined> {
  const git = async (args: string[]): Promise<string | undefined> => {
    try {
      return (await run('git', ['-C', dir, ...args], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })).stdout.trim();
    } catch {
      return undefined;
    }
  };
  const root = await git(['rev-parse', '--show-toplevel']);
  if (root === undefined || root === '') return undefined;
  const remotes = (await git(['remote']))?.split('\n').filter((r) => r !== '') ?? [];
  const remote = remotes.includes('origin') ? 'origin' : remotes[0];
  const url = remote === undefined ? undefined : await git(['remote', 'get-url', remote]);
  const repo = url === undefined ? undefined : webAddressOfRemote(url);
  const rel = relative(root, dir).split(sep).join('/');
  const commit = await git(['rev-parse', 'HEAD']);
  const owner = repo === undefined ? undefined : /^https:\/\/github\.com\/([A-Za-z0-9-]+)\//u.exec(repo)?.[1];
  return { root, repo, path: rel === '' ? undefined : rel, commit: commit === '' ? undefined : commit, githubOwner: owner };
}
