/**
 * From a valid submission (spec "POST /api/v1/submissions body") to a loadout: the authoring
 * record (`loadout.yaml`) and the files, as the in-memory `LoadoutSource` that `runChecks`
 * judges exactly as it judges a folder. Roles come from the paths (file-roles.ts); adapters the
 * submission lacks are generated; the version is 1.0.0; the author comes from the submission.
 * Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { ADAPTER_AGENTS, adapterFileName, generateAdapter } from '../adapters/generate.js';
import type { FileEntry, Manifest } from '../catalogue/manifest.js';
import type { LoadoutSource } from '../catalogue/source.js';
import { AUTHORING_AGENTS, type AuthoringAgent, type CompatibilityLevel } from '../catalogue/vocabulary.js';
import type { SubmissionFile } from '../storage/submission-store.js';
import { declareSecurity } from './declared-security.js';
import type { Submission } from './validate.js';

/** The loadout a submission describes. */
export interface DerivedLoadout {
  manifest: Manifest;
  /** `loadout.yaml` text. */
  manifestText: string;
  /** Every file, submitted and generated, in manifest order. */
  files: SubmissionFile[];
  source: LoadoutSource;
  /** `sha256:<12 hex>` over the manifest and files: what the checks ran on. */
  contentId: string;
}

/** The author when the submission names none. */
export const ANONYMOUS_AUTHOR = 'Anonymous contributor';

/** Builds the loadout of `submission`, dated `today` (`YYYY-MM-DD`). */
export function deriveLoadout(submission: Submission, today: string): DerivedLoadout {
  const entries: FileEntry[] = [];
  const files: SubmissionFile[] = [];
  for (const file of submission.files) {
    const { role, agent, skill, description } = file.inferred;
    entries.push({ path: file.path, role, description, ...(agent === undefined ? {} : { agent }), ...(skill === undefined ? {} : { skill }) });
    files.push({ path: file.path, content: file.content });
  }
  for (const agent of ADAPTER_AGENTS) {
    const path = adapterFileName(agent);
    if (!submission.agents.includes(agent) || files.some((f) => f.path === path)) continue;
    entries.push({ path, role: 'adapter', agent, description: `Adapter for ${agent}: imports AGENTS.md (generated)` });
    files.push({ path, content: generateAdapter(agent, submission.name) });
  }
  const compatibility: Partial<Record<AuthoringAgent, CompatibilityLevel>> = {};
  for (const agent of AUTHORING_AGENTS) {
    compatibility[agent] = !submission.agents.includes(agent) ? 'unsupported' : (ADAPTER_AGENTS as readonly string[]).includes(agent) ? 'adapter' : 'native';
  }
  const declared = declareSecurity(files, new Set(entries.filter((e) => e.role === 'mcp').map((e) => e.path)));
  const manifest: Manifest = {
    id: submission.id,
    type: 'loadout',
    title: submission.name,
    summary: submission.summary,
    description: submission.description ?? submission.summary,
    highlights: submission.highlights ?? [submission.summary],
    version: '1.0.0',
    license: submission.licence,
    author: submission.author ?? { name: ANONYMOUS_AUTHOR },
    ...(submission.source_url === undefined ? {} : { source: { repo: submission.source_url } }),
    categories: [submission.category],
    stacks: submission.stacks,
    files: entries,
    compatibility,
    requires: { tools: [], env: [], mcp: declared.mcpServers },
    tested: { status: 'untested', last_run: null, fixture: null },
    // Network use, scripts and MCP servers are detected (the form cannot state them); the
    // safety and mcp checks run with the others and reviewers see their results.
    security: { scanned: false, network: declared.network, scripts: declared.scripts },
    last_checked: today,
  };
  const manifestText = stringify(manifest);
  const source: LoadoutSource = {
    id: submission.id,
    displayDir: '',
    manifestText,
    files: new Map(files.map((f) => [f.path, Buffer.from(f.content, 'utf8')])),
    irregular: [],
  };
  const hash = createHash('sha256').update(manifestText);
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) hash.update(`\u0000${f.path}\u0000${f.content}`);
  return { manifest, manifestText, files, source, contentId: `sha256:${hash.digest('hex').slice(0, 12)}` };
}
