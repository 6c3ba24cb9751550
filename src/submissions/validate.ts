/**
 * The field rules of `POST /api/v1/submissions` (spec "POST /api/v1/submissions body" and
 * "Limits"): every violation is collected, each with an RFC 6901 pointer into the body and a
 * message that says what was expected, so that one 422 answers them all. Pure: no I/O.
 */
import { describePathClashes, describePathProblem } from '../catalogue/file-path.js';
import { AUTHORING_AGENTS, CATEGORIES, LICENCES, LIMITS, SLUG_PATTERN, type AuthoringAgent, type Category, type Licence } from '../catalogue/vocabulary.js';
import type { FieldError } from '../server/problem.js';
import { inferRole, type InferredRole } from './file-roles.js';

/** A submission that passed every rule. Strings are as sent. */
export interface Submission {
  name: string;
  summary: string;
  description?: string;
  highlights?: string[];
  category: Category;
  stacks: string[];
  agents: AuthoringAgent[];
  files: { path: string; content: string; inferred: InferredRole }[];
  licence: Licence;
  author?: { name: string; url?: string; github?: string };
  contact_email?: string;
  source_url?: string;
  notes?: string;
  rights_confirmed: true;
  /** As sent, or derived from `name`. */
  id: string;
}

/** Most characters in `notes` and in each highlight: bounds the spec leaves open. */
export const NOTES_MAX = 4000;
export const HIGHLIGHT_MAX = 200;

const KNOWN = ['name', 'summary', 'description', 'highlights', 'category', 'stacks', 'agents', 'files', 'licence', 'author', 'contact_email', 'source_url', 'notes', 'rights_confirmed', 'id', 'challenge_token', 'form_token'];
// WHATWG HTML "valid e-mail address", with at least one dot in the domain (a public address).
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/u;
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/u;

/** Validates a parsed body. @returns the submission, or every violation (never both). */
export function validateSubmission(body: unknown): { ok: true; submission: Submission } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (pointer: string, message: string): void => void errors.push({ pointer, message });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ pointer: '', message: `is ${describe(body)} (expected a JSON object with the submission fields)` }] };
  }
  const b = body as Record<string, unknown>;
  const text = (key: string, min: number, max: number, required: boolean): string | undefined => {
    const v = b[key];
    if (v === undefined) {
      if (required) fail(`/${key}`, `is missing (expected a string of ${min} to ${max} characters)`);
      return undefined;
    }
    if (typeof v !== 'string') return void fail(`/${key}`, `is ${describe(v)} (expected a string of ${min} to ${max} characters)`);
    const n = [...v].length;
    if (n < min || n > max) return void fail(`/${key}`, `has ${n} character${n === 1 ? '' : 's'} (expected ${min} to ${max})`);
    return v;
  };
  const oneOf = <T extends string>(key: string, values: readonly T[]): T | undefined => {
    const v = b[key];
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    fail(`/${key}`, `is ${v === undefined ? 'missing' : describe(v)} (expected one of ${values.join(', ')})`);
    return undefined;
  };
  const list = (key: string, min: number, max: number, required: boolean, item: (v: unknown, pointer: string) => boolean, what: string): string[] | undefined => {
    const v = b[key];
    if (v === undefined) {
      if (required) fail(`/${key}`, `is missing (expected an array of ${min} to ${max} ${what})`);
      return undefined;
    }
    if (!Array.isArray(v)) return void fail(`/${key}`, `is ${describe(v)} (expected an array of ${min} to ${max} ${what})`);
    if (v.length < min || v.length > max) fail(`/${key}`, `has ${v.length} items (expected ${min} to ${max} ${what})`);
    const ok = v.map((x, i) => item(x, `/${key}/${i}`)).every(Boolean);
    return ok && v.length >= min && v.length <= max ? (v as string[]) : undefined;
  };

  const name = text('name', 3, 60, true);
  const summary = text('summary', 20, 200, true);
  const description = text('description', 20, 4000, false);
  const highlights = list('highlights', 1, 8, false, (v, p) => {
    if (typeof v === 'string' && v.trim() !== '' && [...v].length <= HIGHLIGHT_MAX) return true;
    fail(p, `is ${describe(v)} (expected a non-empty string of at most ${HIGHLIGHT_MAX} characters)`);
    return false;
  }, 'strings');
  const category = oneOf('category', CATEGORIES);
  const stacks = list('stacks', 1, 8, true, (v, p) => {
    if (typeof v === 'string' && SLUG_PATTERN.test(v) && v.length <= 40) return true;
    fail(p, `is ${describe(v)} (expected a lowercase hyphenated slug such as "react-native", at most 40 characters)`);
    return false;
  }, 'slugs');
  const agents = list('agents', 1, AUTHORING_AGENTS.length, true, (v, p) => {
    if (typeof v === 'string' && (AUTHORING_AGENTS as readonly string[]).includes(v)) return true;
    fail(p, `is ${describe(v)} (expected one of ${AUTHORING_AGENTS.join(', ')})`);
    return false;
  }, 'agent identifiers') as AuthoringAgent[] | undefined;
  if (agents !== undefined && new Set(agents).size !== agents.length) fail('/agents', 'names an agent twice (expected each agent once)');
  const files = validateFiles(b['files'], fail);
  const licence = oneOf('licence', LICENCES);
  const author = validateAuthor(b['author'], fail);
  let contactEmail: string | undefined;
  if (b['contact_email'] !== undefined) {
    const v = b['contact_email'];
    if (typeof v === 'string' && v.length <= 254 && EMAIL.test(v)) contactEmail = v;
    else fail('/contact_email', `is ${describe(v)} (expected an e-mail address such as "ada@example.org")`);
  }
  let sourceUrl: string | undefined;
  if (b['source_url'] !== undefined) {
    const v = b['source_url'];
    if (isUrl(v, ['https:'])) sourceUrl = v;
    else fail('/source_url', `is ${describe(v)} (expected an https URL such as "https://github.com/you/repo")`);
  }
  const notes = b['notes'] === undefined ? undefined : text('notes', 0, NOTES_MAX, false);
  if (b['rights_confirmed'] !== true) fail('/rights_confirmed', `is ${b['rights_confirmed'] === undefined ? 'missing' : describe(b['rights_confirmed'])} (expected true: you confirm you may publish these files under the licence)`);
  let id: string | undefined;
  if (b['id'] !== undefined) {
    const v = b['id'];
    if (typeof v === 'string' && SLUG_PATTERN.test(v) && v.length <= 64) id = v;
    else fail('/id', `is ${describe(v)} (expected a slug: lowercase letters and digits in groups separated by single hyphens, at most 64 characters)`);
  } else if (name !== undefined) {
    id = slugify(name);
    if (id === '') fail('/name', `"${name}" gives no id (expected letters or digits in the name, or an explicit "id")`);
  }
  for (const key of Object.keys(b)) {
    if (!KNOWN.includes(key)) fail(`/${escapePointer(key)}`, `is an unknown field (expected only: ${KNOWN.join(', ')})`);
  }
  if (errors.length > 0 || name === undefined || summary === undefined || category === undefined || stacks === undefined || agents === undefined || files === undefined || licence === undefined || id === undefined) {
    return { ok: false, errors };
  }
  const submission: Submission = { name, summary, category, stacks, agents, files, licence, rights_confirmed: true, id };
  if (description !== undefined) submission.description = description;
  if (highlights !== undefined) submission.highlights = highlights;
  if (author !== undefined) submission.author = author;
  if (contactEmail !== undefined) submission.contact_email = contactEmail;
  if (sourceUrl !== undefined) submission.source_url = sourceUrl;
  if (notes !== undefined) submission.notes = notes;
  return { ok: true, submission };
}

function validateFiles(value: unknown, fail: (pointer: string, message: string) => void): Submission['files'] | undefined {
  const expected = `an array of 1 to ${LIMITS.files} {path, content} objects`;
  if (value === undefined) return void fail('/files', `is missing (expected ${expected}, one of them AGENTS.md)`);
  if (!Array.isArray(value)) return void fail('/files', `is ${describe(value)} (expected ${expected})`);
  let ok = true;
  const bad = (pointer: string, message: string): void => {
    ok = false;
    fail(pointer, message);
  };
  if (value.length < 1 || value.length > LIMITS.files) bad('/files', `has ${value.length} entries (expected 1 to ${LIMITS.files})`);
  const seen = new Map<string, number>();
  const files: Submission['files'] = [];
  let total = 0;
  value.forEach((entry: unknown, i) => {
    const at = `/files/${i}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return bad(at, `is ${describe(entry)} (expected an object {path, content})`);
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (key !== 'path' && key !== 'content') bad(`${at}/${escapePointer(key)}`, 'is an unknown field (expected only path and content)');
    const { path, content } = e;
    if (typeof content !== 'string') bad(`${at}/content`, `is ${content === undefined ? 'missing' : describe(content)} (expected the file's text as a string)`);
    else {
      const bytes = Buffer.byteLength(content, 'utf8');
      total += bytes;
      if (content.includes('\u0000')) bad(`${at}/content`, 'contains a NUL character (expected UTF-8 text)');
      if (hasLoneSurrogate(content)) bad(`${at}/content`, 'contains an unpaired surrogate, which is not UTF-8 text (expected UTF-8 text)');
      if (bytes > LIMITS.fileBytes) bad(`${at}/content`, `is ${bytes} bytes (expected at most ${LIMITS.fileBytes} bytes, 32 KB, of UTF-8)`);
    }
    if (typeof path !== 'string') return bad(`${at}/path`, `is ${path === undefined ? 'missing' : describe(path)} (expected a relative path such as "rules/style.md")`);
    const problem = describePathProblem(path) ?? (!hasLoneSurrogate(path) ? undefined : 'contains an unpaired surrogate (expected UTF-8 text)');
    if (problem !== undefined) return bad(`${at}/path`, `"${path}" ${problem}`);
    if (seen.has(path)) return bad(`${at}/path`, `"${path}" is listed twice (expected each path once)`);
    seen.set(path, i);
    if (typeof content !== 'string') return;
    const inferred = inferRole(path, content);
    if ('problem' in inferred) return bad(`${at}/path`, `"${path}" ${inferred.problem}`);
    files.push({ path, content, inferred });
  });
  // Paths that cannot all exist in one folder: the bot could not write them, nor a user install them.
  for (const clash of describePathClashes(seen.keys())) bad(`/files/${seen.get(clash.path) ?? 0}/path`, clash.message);
  if (total > LIMITS.totalBytes) bad('/files', `hold ${total} bytes in total (expected at most ${LIMITS.totalBytes} bytes, 128 KB)`);
  if (!value.some((e: unknown) => (e as { path?: unknown } | null)?.path === 'AGENTS.md')) bad('/files', 'has no AGENTS.md (expected an entry with path "AGENTS.md": the instructions every agent reads)');
  return ok ? files : undefined;
}

function validateAuthor(value: unknown, fail: (pointer: string, message: string) => void): Submission['author'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return void fail('/author', `is ${describe(value)} (expected an object {name, url?, github?})`);
  const a = value as Record<string, unknown>;
  let ok = true;
  const bad = (pointer: string, message: string): void => {
    ok = false;
    fail(pointer, message);
  };
  for (const key of Object.keys(a)) if (!['name', 'url', 'github'].includes(key)) bad(`/author/${escapePointer(key)}`, 'is an unknown field (expected only name, url and github)');
  if (typeof a['name'] !== 'string' || a['name'].trim() === '' || [...a['name']].length > 100) bad('/author/name', `is ${a['name'] === undefined ? 'missing' : describe(a['name'])} (expected a name of 1 to 100 characters)`);
  if (a['url'] !== undefined && !isUrl(a['url'], ['https:', 'http:'])) bad('/author/url', `is ${describe(a['url'])} (expected an http or https URL)`);
  if (a['github'] !== undefined && (typeof a['github'] !== 'string' || !GITHUB_LOGIN.test(a['github']))) bad('/author/github', `is ${describe(a['github'])} (expected a GitHub user name such as "octocat")`);
  return ok ? (a as Submission['author']) : undefined;
}

/** Derives a loadout id from a name: `"Next.js App Router!"` → `"next-js-app-router"`. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|(?<!-)-+$/gu, '')
    .slice(0, 64)
    .replace(/(?<!-)-+$/u, '');
}

// A lone UTF-16 surrogate (JSON allows "\ud800") has no UTF-8 encoding. No `u` flag: it would
// treat the string as code points and never see a lone surrogate.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

function isUrl(value: unknown, protocols: string[]): value is string {
  if (typeof value !== 'string' || value.length > 2000) return false;
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
