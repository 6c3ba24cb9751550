/**
 * Escaping for the pages (docs/http-api.md, "The pages": every loadout value escaped). Every value
 * that reaches a page goes through {@link escapeHtml} (element content and double-quoted attribute
 * values) or {@link escapeXml} (sitemap and feed); links built from loadout values go through
 * {@link safeHref}, so a `javascript:` address is never a link. Pure.
 */

/**
 * Escapes `&`, `<`, `>`, `"` and `'`, which is enough for element content and for attribute
 * values in double quotes (HTML Living Standard, "Serialising HTML fragments").
 */
export function escapeHtml(text: string): string {
  // Most values have nothing to escape: one scan instead of five (the build escapes every file
  // of every loadout for its page, so this runs over the whole catalogue's text).
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

const NEEDS_ESCAPE = /[&<>"']/u;

/** Escapes text for XML content and attributes (XML 1.0 section 2.4), and drops the control characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  // As in escapeHtml: most values (every loadout's address in the sitemap) have nothing to change.
  if (!NEEDS_XML_ESCAPE.test(text)) return text;
  return escapeHtml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/gu, '')).replaceAll('&#39;', '&apos;');
}

const NEEDS_XML_ESCAPE = /[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/u;

/**
 * An `href` value for an address taken from a loadout or a submission: `http:`, `https:` or
 * `mailto:` addresses, or relative ones, escaped; anything else (`javascript:`, `data:`,
 * `vbscript:`, …) becomes undefined, and the caller shows the text without a link.
 */
export function safeHref(url: string): string | undefined {
  const trimmed = url.trim();
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/u.exec(trimmed.replace(/[\u0000-\u0020]/gu, ''))?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https' && scheme !== 'mailto') return undefined;
  return escapeHtml(trimmed);
}

/** `<a href="…">text</a>` when `url` passes {@link safeHref}, else the escaped text alone. */
export function linkOrText(url: string, text: string): string {
  const href = safeHref(url);
  return href === undefined ? escapeHtml(text) : `<a href="${href}">${escapeHtml(text)}</a>`;
}

/** `1 rule`, `2 rules`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A byte count for people: `812 B`, `3.4 KB`. */
export function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * `text` as HTML paragraphs: runs of lines separated by blank lines (lines of only blanks), each
 * escaped and trimmed; no paragraph for an empty run. One pass over the lines, so a text of
 * blank lines costs time linear in its length.
 */
export function paragraphsHtml(text: string): string {
  const out: string[] = [];
  let current: string[] = [];
  const close = (): void => {
    const p = current.join('\n').trim();
    if (p !== '') out.push(`<p>${escapeHtml(p)}</p>`);
    current = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') close();
    else current.push(line);
  }
  close();
  return out.join('\n');
}
