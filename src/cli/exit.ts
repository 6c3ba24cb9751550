/** The one error that carries an exit code; only `main` turns it into `process.exitCode`. */
export class ExitError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message = '') {
    super(message);
    this.name = 'ExitError';
    this.exitCode = exitCode;
  }
}

/** Exit codes of DESIGN.md section 2. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
