/**
 * Form tokens (src/submissions/form-token.ts): one token has one spelling. A signature with
 * anything after it, or whose last character differs only in the bits base64url leaves unused,
 * decodes to the same bytes in Node and must still be refused (RFC 4648 sections 3.5 and 5).
 */
import { describe, expect, it } from 'vitest';
import { issueFormToken, verifyFormToken } from '../../src/submissions/form-token.js';

const SECRET = 'form-token-test-secret';
const NOW = new Date('2026-11-25T10:00:00.000Z');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('form tokens', () => {
  it('accepts the token as issued', () => {
    const { token, nonce } = issueFormToken(SECRET, NOW);
    expect(verifyFormToken(SECRET, token, NOW)).toEqual({ ok: true, nonce, expiresAt: new Date('2026-11-25T12:00:00.000Z') });
  });

  it.each(['=', '==', '!', ' ', '\n', '\u0000', '%', 'A', 'AAAA', '.'])('refuses the token with %j after its signature', (extra) => {
    const { token } = issueFormToken(SECRET, NOW);
    expect(verifyFormToken(SECRET, `${token}${extra}`, NOW)).toEqual({ ok: false, problem: extra === 'A' || extra === 'AAAA' ? 'bad_signature' : 'malformed' });
  });

  it('refuses a signature whose last character is a non-canonical variant (the same bytes once decoded)', () => {
    const { token } = issueFormToken(SECRET, NOW);
    const [payload, signature] = token.split('.') as [string, string];
    // 32 bytes are 43 base64url characters: 258 bits, of which the last character's low 2 are unused.
    const last = ALPHABET.indexOf(signature.at(-1) ?? '');
    expect(last % 4).toBe(0);
    for (const bits of [1, 2, 3]) {
      const variant = `${signature.slice(0, -1)}${ALPHABET[last + bits] ?? ''}`;
      expect(Buffer.from(variant, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
      expect(verifyFormToken(SECRET, `${payload}.${variant}`, NOW)).toEqual({ ok: false, problem: 'malformed' });
    }
  });

  it('refuses a payload with padding or outside the alphabet', () => {
    const { token } = issueFormToken(SECRET, NOW);
    const [payload, signature] = token.split('.') as [string, string];
    expect(verifyFormToken(SECRET, `${payload}=.${signature}`, NOW)).toEqual({ ok: false, problem: 'malformed' });
    expect(verifyFormToken(SECRET, `${payload}+.${signature}`, NOW)).toEqual({ ok: false, problem: 'malformed' });
  });
});
