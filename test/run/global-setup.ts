/**
 * The test run's global setup (vitest `globalSetup`, run once in the main process before any
 * worker starts): chooses the PostgreSQL the tests use (postgres-probe.ts) and sets
 * `TEST_DATABASE_URL` for the run when the local one answers, saying so on the first lines.
 * Workers inherit the environment, and read why not through `inject('postgresProbe')`.
 */
import type { TestProject } from 'vitest/node';
import { choosePostgres, POSTGRES_PROBE_KEY } from './postgres-probe.js';

/** Runs before the workers start. */
export default async function setup(project: TestProject): Promise<void> {
  const choice = await choosePostgres(process.env);
  if (choice.url !== undefined) process.env['TEST_DATABASE_URL'] = choice.url;
  project.provide(POSTGRES_PROBE_KEY, choice.why);
  project.vitest.logger.log(choice.line);
}
