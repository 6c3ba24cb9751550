/**
 * The media-type parser behind the 415 of `POST /api/v1/submissions` (RFC 9110 section 8.3.1),
 * as a pure function: type and subtype, parameters with token or quoted-string values.
 */
import { describe, expect, it } from 'vitest';
import { checkJsonMediaType, parseMediaType } from '../../src/submissions/body.js';

describe('parseMediaType', () => {
  it('lowercases the type and parameter names, keeps values, unquotes quoted strings', () => {
    const parsed = parseMediaType('Application/JSON ; Charset="UTF-8"; q="a \\"b\\""');
    expect(parsed).toEqual({ ok: true, type: 'application/json', parameters: new Map([['charset', 'UTF-8'], ['q', 'a "b"']]) });
    expect(parseMediaType('application/json;;  ;')).toEqual({ ok: true, type: 'application/json', parameters: new Map() });
  });

  it('refuses what RFC 9110 does not allow, saying what is wrong', () => {
    const reasons: [string, RegExp][] = [
      ['/json', /no type\/subtype/],
      ['application', /no type\/subtype/],
      ['application/', /no subtype/],
      ['application/json x', /expected ";"/],
      ['application/json; charset', /not name=value at the end/],
      ['application/json; =utf-8', /not name=value/],
      ['application/json; charset=utf 8', /expected ";"/],
      ['application/json; charset="utf-8', /no valid value/],
      ['application/json; a=1; A=2', /"a" appears twice/],
    ];
    for (const [header, reason] of reasons) {
      const parsed = parseMediaType(header);
      expect(parsed.ok, header).toBe(false);
      if (!parsed.ok) expect(parsed.reason, header).toMatch(reason);
    }
  });
});

describe('checkJsonMediaType', () => {
  it('allows application/json with no charset or utf-8 only, and names what it refuses', () => {
    expect(checkJsonMediaType('application/json')).toBeUndefined();
    expect(checkJsonMediaType('application/json; charset="UTF-8"')).toBeUndefined();
    expect(checkJsonMediaType(null)).toMatch(/without a Content-Type/);
    expect(checkJsonMediaType('application/json; charset=latin1')).toMatch(/charset is "latin1" \(expected utf-8 or no charset/);
    expect(checkJsonMediaType('text/json')).toMatch(/the body is "text\/json"/);
    expect(checkJsonMediaType(`application/json; charset=${'x'.repeat(5000)}`)?.length).toBeLessThan(400);
  });
});
