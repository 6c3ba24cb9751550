/**
 * Operational failures (a folder that cannot be read, git that fails, a port in use) are a
 * `LoadoutError` with a stable code; content problems are diagnostics instead. Only the CLI
 * entry point turns an error into an exit code; only the HTTP error mapper turns one into
 * problem details.
 */
export type LoadoutErrorCode =
  | 'usage'
  | 'not_found'
  | 'invalid_content'
  | 'io'
  | 'git'
  | 'build_refused'
  | 'config'
  | 'internal';

/** An operational error with a permanent code, a message saying what happened and a hint. */
export class LoadoutError extends Error {
  readonly code: LoadoutErrorCode;
  readonly hint: string | undefined;

  constructor(code: LoadoutErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LoadoutError';
    this.code = code;
    this.hint = options.hint;
  }
}
