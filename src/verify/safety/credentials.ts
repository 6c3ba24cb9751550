/**
 * Credentials in a loadout's files, found by secretlint's recommended rule preset
 * (`@secretlint/secretlint-rule-preset-recommend`: AWS, GCP, private keys, npm, basic auth in
 * URLs, Slack, SendGrid, Shopify, GitHub, GitLab, Grafana, OpenAI, Anthropic, Groq, Hugging
 * Face, Linear, Notion, 1Password, database connection strings, HashiCorp Vault, Vercel,
 * Databricks, Docker, Figma). A well-kept pattern library beats our own regular expressions:
 * its rules know each vendor's token shape and skip documented example values.
 * `lintSource` reports `loc.start.line` 1-based (and columns 0-based).
 */
import type { SecretLintCoreConfig } from '@secretlint/types';
import type { Finding } from '../check.js';
import { LineIndex } from '../text/line-index.js';

/**
 * secretlint and the preset's rules, loaded on the first scan: a process whose scans all run
 * on a worker (`CredentialScanner`) never loads them in its own thread.
 *
 * The preset's rules are registered each on its own, without `filter-comments`: content under
 * review must not switch the scan off with `secretlint-disable` comments (one such comment in
 * any file would hide every secret after it, since a loadout is linted as one text).
 * `disabled` on a rule inside a preset is ignored by @secretlint/core 12.0.0, hence the list.
 * @throws Error when the preset no longer holds `filter-comments` (the list must be reviewed).
 */
let secretlint: Promise<{ lintSource: typeof import('@secretlint/core').lintSource; config: SecretLintCoreConfig }> | undefined;
function loadSecretlint(): NonNullable<typeof secretlint> {
  return (secretlint ??= (async () => {
    const [{ lintSource }, { secretLintProfiler }, { creator: recommended }] = await Promise.all([import('@secretlint/core'), import('@secretlint/profiler'), import('@secretlint/secretlint-rule-preset-recommend')]);
    // secretlint marks every lint on the global performance timeline and keeps every mark in an
    // array it scans linearly (@secretlint/profiler 12.0.0), so a long run or a server slows down
    // quadratically and grows without bound. We never read the profile: make marking a no-op.
    secretLintProfiler.mark = () => undefined;
    const FILTER_COMMENTS = '@secretlint/secretlint-rule-filter-comments';
    if (!recommended.rules.some((rule) => rule.meta.id === FILTER_COMMENTS)) throw new Error(`${FILTER_COMMENTS} is no longer in the recommended preset: review what credentials.ts leaves out`);
    const config: SecretLintCoreConfig = { rules: recommended.rules.filter((rule) => rule.meta.id !== FILTER_COMMENTS).map((rule) => ({ id: rule.meta.id, rule })) };
    return { lintSource, config };
  })());
}

/** A file to scan: its loadout path and text. */
export interface CredentialSource {
  path: string;
  text: string;
}

/**
 * A way to run the credential scan over a loadout's files, in this thread
 * ({@link findCredentials}) or on a worker (`CredentialScanner`); both give the same findings.
 */
export type CredentialScan = (files: readonly CredentialSource[]) => Promise<Finding[]>;

/**
 * A loadout's files as one text, joined by blank lines: `content`, and where each file
 * (`paths[i]`) starts in it (`starts[i]`, in UTF-16 code units). How the scan reads a loadout.
 */
export interface JoinedSources {
  paths: string[];
  starts: number[];
  content: string;
}

/** Joins `files` for {@link findJoinedCredentials}. Pure. */
export function joinSources(files: readonly CredentialSource[]): JoinedSources {
  const starts: number[] = [];
  let content = '';
  for (const f of files) {
    starts.push(content.length);
    content += `${f.text}\n\n`;
  }
  return { paths: files.map((f) => f.path), starts, content };
}

/**
 * Findings for credentials in `files`. The files are linted as one text, joined by blank
 * lines (one secretlint call per loadout instead of one per file, which is most of its cost),
 * and each message is mapped back to its file and line. Secrets are masked in messages, so a
 * published record never repeats them. Never throws for content.
 */
export const findCredentials: CredentialScan = async (files) => (files.length === 0 ? [] : findJoinedCredentials(joinSources(files)));

/** {@link findCredentials} over files already joined by {@link joinSources}. */
export async function findJoinedCredentials(joined: JoinedSources): Promise<Finding[]> {
  return (await lintJoined(joined)).map(({ finding }) => finding);
}

/**
 * {@link findCredentials} for several loadouts at once, each already joined: one secretlint
 * call for all (its set-up per call costs about a sixth of a small loadout's scan), findings
 * returned per loadout in order. The loadouts are joined as their files are, by blank lines.
 */
export async function findBatchCredentials(batch: readonly JoinedSources[]): Promise<Finding[][]> {
  const paths: string[] = [];
  const starts: number[] = [];
  const owners: number[] = [];
  let content = '';
  batch.forEach((joined, k) => {
    joined.paths.forEach((path, i) => {
      paths.push(path);
      starts.push(content.length + (joined.starts[i] ?? 0));
      owners.push(k);
    });
    content += joined.content;
  });
  const out = batch.map((): Finding[] => []);
  for (const { index, finding } of await lintJoined({ paths, starts, content })) out[owners[index] ?? 0]?.push(finding);
  return out;
}

/** secretlint over joined files: each finding with the index of its file in `paths`. */
async function lintJoined({ paths, starts, content }: JoinedSources): Promise<{ index: number; finding: Finding }[]> {
  if (paths.length === 0) return [];
  const { lintSource, config } = await loadSecretlint();
  const result = await lintSource({
    source: { content, filePath: 'loadout.txt', ext: '.txt', contentType: 'text' },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  if (result.messages.length === 0) return [];
  const lines = new LineIndex(content);
  return result.messages.map((m) => {
    let i = starts.length - 1;
    while (i > 0 && (starts[i] ?? 0) > m.range[0]) i--;
    return {
      index: i,
      finding: {
        file: paths[i] ?? '',
        line: lines.lineOf(m.range[0]) - lines.lineOf(starts[i] ?? 0) + 1,
        // Each file starts a line of the joined text, so the column is the file's own.
        column: lines.columnOf(m.range[0]),
        rule: 'credentials',
        message: `contains a credential: ${m.message.replace(/\s+/gu, ' ').slice(0, 120)} [${m.ruleId.replace('@secretlint/secretlint-rule-', 'secretlint:')}] (expected no secrets; use a placeholder such as \${API_KEY})`,
        hint: 'Remove the secret, revoke it, and refer to an environment variable instead.',
      },
    };
  });
}
