/**
 * The pages' escaping and the verification table, without a browser: every character that
 * could open markup is escaped, only http(s) and mailto addresses become links, notices are
 * told apart from other details, and a status document's verification of the wrong shape
 * renders without throwing.
 */
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeXml, linkOrText, safeHref } from '../../src/pages/html.js';
import { readVerification, renderVerificationTable, splitNotices } from '../../src/pages/verification.js';

describe('escaping', () => {
  it('escapes the five characters of HTML, and XML drops the control characters XML forbids', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeXml(`<t a='1'>\u0001\u0008ok\u000b</t>`)).toBe('&lt;t a=&apos;1&apos;&gt;ok&lt;/t&gt;');
  });

  it('links http, https and mailto addresses and relative ones; anything else is text', () => {
    expect(safeHref('https://example.org/?a=1&b="2"')).toBe('https://example.org/?a=1&amp;b=&quot;2&quot;');
    expect(safeHref('mailto:ada@example.org')).toBe('mailto:ada@example.org');
    expect(safeHref('../docs/')).toBe('../docs/');
    for (const bad of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>1</script>', 'vbscript:x']) expect(safeHref(bad), bad).toBeUndefined();
    expect(linkOrText('javascript:alert(1)', '<em>x</em>')).toBe('&lt;em&gt;x&lt;/em&gt;');
    expect(linkOrText('https://example.org', 'site')).toBe('<a href="https://example.org">site</a>');
  });
});

describe('the verification table', () => {
  it('shows notices apart, without their prefix, escaped', () => {
    expect(splitNotices(['a.md:1: broken', 'notice: b.md:2: <sudo>', 'Notice: c'])).toEqual({ notices: ['b.md:2: <sudo>', 'c'], lines: ['a.md:1: broken'] });
    const view = readVerification({ label: 'L', verified: false, meaning: 'M', checked_at: 't', commit: 'c', counts: { pass: 1, fail: 1 }, checks: [{ id: 'safety', name: 'Safety scan', status: 'pass', summary: 's', details: ['notice: AGENTS.md:3: "sudo <apt>"'] }] });
    const html = renderVerificationTable(view ?? (undefined as never));
    expect(html).toContain('<li class="notice"><span class="badge note">Notice</span> AGENTS.md:3: &quot;sudo &lt;apt&gt;&quot;</li>');
    expect(html).not.toContain('notice:');
  });

  it('reads a verification of the wrong shape as far as it goes, and refuses one without checks', () => {
    expect(readVerification(null)).toBeUndefined();
    expect(readVerification({ checks: 'no' })).toBeUndefined();
    expect(readVerification({ checks: [null, { id: 7, details: 'x' }] })?.checks).toEqual([
      { id: '', name: '', status: '', summary: '', details: [] },
      { id: '', name: '', status: '', summary: '', details: [] },
    ]);
  });
});
