/**
 * Credentials in a loadout's files, found by secretlint's recommended rule preset
 * (`@secretlint/secretlint-rule-preset-recommend`: AWS, GCP, private keys, npm, basic auth in
 * URLs, Slack, SendGrid, Shopify, GitHub, GitLab, Grafana, OpenAI, Anthropic, Groq, Hugging
 * Face, Linear, Notion, 1Password, database connection strings, HashiCorp Vault, Vercel,
 * Databricks, Docker, Figma). A well-kept pattern library beats our own regular expressions:
 * its rules know each vendor's token shape and skip documented example values.
 * `lintSource` reports `loc.start.line` 1-based (and columns 0-based).
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import type { Finding } from '../check.js';

// secretlint marks every lint on the global performance timeline and keeps every mark in an
// array it scans linearly (@secretlint/profiler 12.0.0), so a long run or a server slows down
// quadratically and grows without bound. We never read the profile: make marking a no-op.
secretLintProfiler.mark = () => undefined;

const CONFIG: SecretLintCoreConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/**
 * Findings for credentials in the file `path` with `text`. Secrets are masked in messages, so
 * a published record never repeats them. Never throws for content.
 */
export async function findCredentials(path: string, text: string): Promise<Finding[]> {
  const result = await lintSource({
    source: { content: text, filePath: path, ext: path.slice(path.lastIndexOf('.')), contentType: 'text' },
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((m) => ({
    file: path,
    line: m.loc.start.line,
    message: `contains a credential: ${m.message.replace(/\s+/gu, ' ').slice(0, 120)} [${m.ruleId.replace('@secretlint/secretlint-rule-', 'secretlint:')}] (expected no secrets; use a placeholder such as \${API_KEY})`,
    hint: 'Remove the secret, revoke it, and refer to an environment variable instead.',
  }));
}
