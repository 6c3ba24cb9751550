/**
 * What some tests need from the machine, and the skip that says so (issue 57, point 13: `npm
 * test` skipped 108 tests without a word). A test that needs Chromium, PostgreSQL, the agents'
 * CLIs, the real-world corpus or a newer Node is declared with {@link describeWith} or
 * {@link itWith} (or, inside a `describe.each` body, {@link requires}): it is skipped when the
 * requirement is not met, and tagged with it (`meta.requires`), so that the run's last lines
 * name each group of skipped tests, why, and how to run them (skipped-reporter.ts).
 *
 * Each requirement is decided once per worker, from the environment the run gives it:
 * `TEST_DATABASE_URL` is set by global-setup.ts when the local PostgreSQL answers.
 */
import { existsSync } from 'node:fs';
import { describe, inject, it } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { CORPUS_DIR } from '../verify/corpus-loadouts.js';
import { POSTGRES_PROBE_KEY } from './postgres-probe.js';

/** A requirement of some tests: met here or not, and if not, why and what to do. */
export interface Requirement {
  /** A stable id: the tests that need it are grouped by it. */
  readonly id: string;
  readonly met: boolean;
  /** What is missing, for the group's line: "Chromium at /usr/bin/chromium missing". */
  readonly missing: string;
  /** How to meet it: a command or a variable to set. */
  readonly enable: string;
}

/** What a test carries to the reporter (`meta.requires`), a plain copy of its {@link Requirement}. */
export interface RequirementTag {
  id: string;
  /** False when the test skipped for this requirement; true when it was met, so a skip had another cause (a failed hook, a name filter). */
  met: boolean;
  missing: string;
  enable: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** The requirement a test or suite was declared with (requirements.ts). */
    requires?: RequirementTag;
  }
}

/** The browser the page tests drive (playwright-core with this executable). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Chromium at {@link CHROMIUM_PATH}, for the page tests. */
export const NEEDS_CHROMIUM: Requirement = {
  id: 'chromium',
  met: existsSync(CHROMIUM_PATH),
  missing: `Chromium at ${CHROMIUM_PATH} missing`,
  enable: 'apt-get install chromium',
};

const databaseUrl = process.env['TEST_DATABASE_URL'];

/**
 * A PostgreSQL database at `TEST_DATABASE_URL`, which global-setup.ts sets to the local one
 * when it answers and the variable is unset; an empty value says not to use any.
 */
export const NEEDS_POSTGRES: Requirement = {
  id: 'postgres',
  met: databaseUrl !== undefined && databaseUrl !== '',
  missing: databaseUrl === '' ? 'PostgreSQL: TEST_DATABASE_URL is empty' : `PostgreSQL: TEST_DATABASE_URL unset, and ${inject(POSTGRES_PROBE_KEY) || 'the local PostgreSQL was not probed'}`,
  enable:
    databaseUrl === ''
      ? 'unset TEST_DATABASE_URL to use the local PostgreSQL, or set it to postgres://user@host:port/database'
      : 'start PostgreSQL on 127.0.0.1:5432 with a database test (`bash .ci/run` does), or set TEST_DATABASE_URL=postgres://user@host:port/database',
};

/** The agents' own CLIs, installed from npm by the opt-in tests (test/install/agent-clis*.test.ts). */
export const NEEDS_AGENT_CLIS: Requirement = {
  id: 'agent-clis',
  met: process.env['LOADOUT_AGENT_CLIS'] === '1',
  missing: "agents' CLIs: LOADOUT_AGENT_CLIS unset (opt-in: these tests install the agents' own CLIs from npm, several hundred MB)",
  enable: 'LOADOUT_AGENT_CLIS=1 npm test',
};

/** The real-world corpus beside the clone (`../shared/corpus`); `LOADOUT_REQUIRE_CORPUS` makes its tests run, and fail, without it. */
export const NEEDS_CORPUS: Requirement = {
  id: 'corpus',
  met: existsSync(CORPUS_DIR) || process.env['LOADOUT_REQUIRE_CORPUS'] !== undefined,
  missing: `the real-world corpus at ${CORPUS_DIR} missing (it lies beside the clone on this workplace's CI only)`,
  enable: `put the corpus at ${CORPUS_DIR}`,
};

/**
 * Skips the suite when `requirement` is not met, and tags it (and so each of its tests) with it:
 * `describeWith(NEEDS_CHROMIUM)('the home page', () => { … })`.
 */
export function describeWith(requirement: Requirement): (name: string, factory: () => void) => void {
  return (name, factory) => {
    describe.skipIf(!requirement.met)(name, () => {
      requires(requirement);
      factory();
    });
  };
}

/**
 * Skips the test when `requirement` is not met, and tags it with it:
 * `itWith(NEEDS_POSTGRES)('answers on PostgreSQL', async () => { … }, 60_000)`.
 */
export function itWith(requirement: Requirement): (name: string, fn: () => unknown, timeout?: number) => void {
  return (name, fn, timeout) => {
    it.skipIf(!requirement.met)(name, fn, timeout);
    // The test just declared is the last task of the suite being collected.
    const tasks = getCurrentSuite().tasks;
    const test = tasks[tasks.length - 1];
    if (test === undefined || test.type !== 'test') throw new Error(`itWith(${requirement.id}): the test "${name}" was not declared in the current suite`);
    test.meta.requires = tagOf(requirement);
  };
}

/**
 * Tags the suite being collected with `requirement` (call it first in a `describe` body, such as
 * one of `describe.each(DATABASE_KINDS)` whose tests skip on the kind's requirement); none for
 * `undefined`. The suite's own skips stay as written.
 */
export function requires(requirement: Requirement | undefined): void {
  if (requirement === undefined) return;
  const suite = getCurrentSuite().suite;
  if (suite === undefined) throw new Error(`requires(${requirement.id}): call it inside a describe body`);
  suite.meta.requires = tagOf(requirement);
}

const tagOf = (requirement: Requirement): RequirementTag => ({ id: requirement.id, met: requirement.met, missing: requirement.missing, enable: requirement.enable });
