/**
 * The settings of running the server in production, read from the environment once:
 * `LOG_LEVEL` (pino's levels, default `info`), `METRICS_PORT` (the Prometheus endpoint's port;
 * off when unset or empty), `METRICS_HOST` (default `127.0.0.1`) and `SHUTDOWN_TIMEOUT_SECONDS`
 * (how long requests in flight may finish after SIGTERM, default 10).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { LOG_LEVELS } from './observe.js';

/** Resolved operation settings. */
export interface OperationsConfig {
  logLevel: string;
  /** undefined: no metrics endpoint. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Milliseconds. */
  shutdownTimeoutMs: number;
}

/**
 * Reads the settings from `env`.
 * @throws LoadoutError `config` naming the variable when a value is malformed.
 */
export function resolveOperationsConfig(env: NodeJS.ProcessEnv): OperationsConfig {
  const level = env['LOG_LEVEL'] === undefined || env['LOG_LEVEL'] === '' ? 'info' : env['LOG_LEVEL'];
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new LoadoutError('config', `LOG_LEVEL is ${JSON.stringify(level)} (expected one of ${LOG_LEVELS.join(', ')})`);
  const port = env['METRICS_PORT'];
  if (port !== undefined && port !== '' && (!/^\d{1,5}$/u.test(port) || Number(port) > 65535)) throw new LoadoutError('config', `METRICS_PORT is ${JSON.stringify(port)} (expected a port number from 0 to 65535)`);
  const timeout = env['SHUTDOWN_TIMEOUT_SECONDS'];
  if (timeout !== undefined && timeout !== '' && !/^\d{1,6}(?:\.\d+)?$/u.test(timeout)) throw new LoadoutError('config', `SHUTDOWN_TIMEOUT_SECONDS is ${JSON.stringify(timeout)} (expected a number of seconds such as 10)`);
  return {
    logLevel: level,
    metricsPort: port === undefined || port === '' ? undefined : Number(port),
    metricsHost: env['METRICS_HOST'] === undefined || env['METRICS_HOST'] === '' ? '127.0.0.1' : env['METRICS_HOST'],
    shutdownTimeoutMs: timeout === undefined || timeout === '' ? 10_000 : Number(timeout) * 1000,
  };
}
