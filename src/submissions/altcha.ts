/**
 * The embedded bot challenge (DESIGN.md section 9): ALTCHA's proof of work, self-hosted, with
 * `altcha-lib` 2.8 (its v2 API). The server signs each challenge with HMAC-SHA256 under
 * `CHALLENGE_SECRET` (or the key generated into the data folder); the `altcha` widget in the
 * browser fetches one from `GET /api/v1/submissions/challenge`, finds the counter, and puts
 * its payload (base64 of `{challenge: {parameters, signature}, solution: {counter,
 * derivedKey}}`) in the form; the form sends it as `challenge_token`.
 *
 * Deterministic mode (altcha-lib README, "Usage"): the server picks the counter and signs the
 * derived key (`keySignature`, under a second key derived from the first), so checking a
 * solution costs two HMACs and no key derivation, and the work the browser does is bounded.
 */
import { createHmac, randomInt } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { ChallengeResult, ChallengeVerifier } from './challenge.js';

/** How hard the proof of work is. */
export interface AltchaDifficulty {
  /** PBKDF2 iterations per attempt. */
  cost: number;
  /**
   * The counter the browser must reach is drawn uniformly from 0 to `maxCounter` (inclusive):
   * `CHALLENGE_MAX_COUNTER`. A solution takes `counter + 1` attempts, `maxCounter / 2` at the
   * median.
   */
  maxCounter: number;
}

/**
 * PBKDF2/SHA-256 with 1,000 iterations and a counter from 0 to 10,000: a solver needs 5,000
 * attempts (5 million PBKDF2 iterations) at the median, whatever order it searches in
 * (docs/deploying.md gives measured solve times). Enough to make each automated submission
 * cost CPU; short enough not to annoy a person, whose browser solves on several workers.
 */
export const ALTCHA_DIFFICULTY: AltchaDifficulty = { cost: 1000, maxCounter: 10_000 };

/**
 * The secret counter of one challenge: uniform over 0…`maxCounter`, from the system's CSPRNG.
 * The range has no floor, on purpose: the solver searches up from 0 (altcha-lib
 * `solveChallenge`, `counterStart` 0), and a public or learnable floor (each solution reveals
 * its counter) would let it start there and skip that work. With no floor, every order of
 * search costs `maxCounter / 2` attempts on average.
 */
export function drawChallengeCounter(maxCounter: number): number {
  return randomInt(0, maxCounter + 1);
}

/** The algorithm the challenges use (the widget's default, bundled as a worker). */
export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';

/** How long a challenge may be solved and sent: 20 minutes, in milliseconds. */
export const ALTCHA_LIFETIME_MS = 20 * 60 * 1000;

/** Longest `challenge_token` accepted, in characters: a real payload is about 700. */
const MAX_TOKEN_LENGTH = 4096;

/** Options of {@link createAltchaVerifier}. */
export interface AltchaOptions {
  /** The HMAC key (`CHALLENGE_SECRET`, or the generated one). */
  secret: string;
  /** Default {@link ALTCHA_DIFFICULTY}; tests make it easier. */
  difficulty?: AltchaDifficulty;
}

/** The ALTCHA challenge: issues signed challenges and checks solutions. */
export function createAltchaVerifier(options: AltchaOptions): ChallengeVerifier {
  const difficulty = options.difficulty ?? ALTCHA_DIFFICULTY;
  const hmacSignatureSecret = options.secret;
  // A second key for the derived-key signatures, derived from the first so one secret is enough.
  const hmacKeySignatureSecret = createHmac('sha256', options.secret).update('altcha-key-signature').digest('hex');
  return {
    provider: 'altcha',
    siteKey: undefined,
    async issue(now) {
      return createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost: difficulty.cost,
        counter: drawChallengeCounter(difficulty.maxCounter),
        deriveKey,
        expiresAt: new Date(now.getTime() + ALTCHA_LIFETIME_MS),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },
    async verify(token) {
      const payload = decodePayload(token);
      if (payload === undefined) return refused('malformed-payload');
      const { challenge, solution } = payload;
      const expiresAt = challenge.parameters.expiresAt;
      if (challenge.parameters.algorithm !== ALTCHA_ALGORITHM || typeof expiresAt !== 'number') return refused('invalid-signature');
      let result;
      try {
        result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret });
      } catch {
        // altcha-lib throws on parameters it cannot use; a payload we signed never has them.
        return refused('invalid-signature');
      }
      if (result.expired) return refused('expired');
      if (result.invalidSignature === true) return refused('invalid-signature');
      if (!result.verified) return refused('invalid-solution');
      // The nonce is random per challenge and covered by the signature: one solution per nonce.
      return { success: true, errorCodes: [], replay: { key: `altcha:${challenge.parameters.nonce}`, expiresAt: new Date(expiresAt * 1000) } };
    },
  };
}

const refused = (code: string): ChallengeResult => ({ success: false, errorCodes: [code] });

/** The widget's payload, or undefined when `token` is not base64 JSON of that shape. */
function decodePayload(token: string): { challenge: Challenge; solution: Solution } | undefined {
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/u.test(token)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  const v = value as { challenge?: { parameters?: unknown; signature?: unknown }; solution?: unknown } | null;
  if (typeof v !== 'object' || v === null || typeof v.challenge !== 'object' || v.challenge === null) return undefined;
  const parameters = v.challenge.parameters as Record<string, unknown> | null | undefined;
  if (typeof parameters !== 'object' || parameters === null || typeof parameters['nonce'] !== 'string' || typeof v.challenge.signature !== 'string') return undefined;
  if (typeof v.solution !== 'object' || v.solution === null) return undefined;
  return { challenge: { parameters: parameters as unknown as Challenge['parameters'], signature: v.challenge.signature }, solution: v.solution as Solution };
}
