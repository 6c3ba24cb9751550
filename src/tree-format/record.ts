/**
 * The shapes of the published record, `api/loadouts/<id>.json` (spec "Loadout record
 * (published form)"): what the build writes and what pages, MCP and other readers of a tree
 * read, and the rule of a file's `lang`. `tree/render/record.ts` fills them.
 */
import type { FileEntry, Manifest } from '../catalogue/manifest.js';
import type { Agent, CompatibilityLevel } from '../catalogue/vocabulary.js';
import type { Verification } from './verification.js';
import type { Capabilities } from './capabilities.js';

/** A manual step of an install entry: `{kind, text, path}` (DESIGN.md section 3). `layout/layout.ts` makes them. */
export interface ManualStep {
  /** `merge-config` (add to a configuration file), `append-instructions`, `add-file`, `not-supported` or `set-env` (a variable an MCP server reads, to set in the environment). */
  kind: 'merge-config' | 'append-instructions' | 'add-file' | 'not-supported' | 'set-env';
  /** What to do, in one or two sentences; may end with a snippet to paste. */
  text: string;
  /** Project-relative path the step is about. */
  path: string;
  /** Loadout file the step comes from. */
  source: string;
}

/** A size: UTF-8 bytes and estimated tokens (`layout/context-cost.ts` says how tokens are estimated). */
export interface ContextSize {
  bytes: number;
  tokens: number;
}

/** The context cost of one loadout for one agent (DESIGN.md section 8, "Context cost"; measured by `layout/context-cost.ts`). */
export interface ContextCost {
  /** Loaded at the start of every session. */
  always: ContextSize;
  /** Loaded when a skill, subagent or scoped rule is used (all of them once). */
  on_demand: ContextSize;
}

/** A file entry of a published record. `agent` and `skill` are null where they do not apply. */
export interface PublishedFileEntry {
  path: string;
  role: FileEntry['role'];
  description: string;
  agent: string | null;
  skill: string | null;
  install_to?: FileEntry['install_to'];
  raw_url: string;
  raw_latest_url: string;
  /** UTF-8 length of `content`, in bytes. */
  bytes: number;
  lang: string;
  /** Hex sha256 of the file's bytes (DESIGN.md section 8). */
  sha256: string;
  content: string;
}

/**
 * Spec `install[<agent>]`. `files` lists what the agent's install writes: `path` the loadout
 * file, `target` where it lands in the project, and `raw_url` / `raw_latest_url` the address of
 * its bytes as installed for the agent (tree-format `installedUrl`: links rewritten, rules
 * translated or composed, MCP files in the agent's shape; layout/installed-files.ts), which the
 * per-agent zip holds and `loadout install` writes, and whose hex sha256 `sha256` is. The
 * spec's table names `raw_url` here without fixing its address; the author's file stays at
 * `files[].raw_url` of the same `path` (issue 57 point 11, docs/http-api.md). One `path` may have
 * two entries, at two targets in two shapes (Copilot's `.vscode/mcp.json` and `.github/mcp.json`).
 */
export interface InstallFile {
  path: string;
  target: string;
  /** `{base}/raw/<id>/installed/<version>/<agent>/<target>`: exactly the bytes `sha256` names. */
  raw_url: string;
  /** The same under `latest`: `{base}/raw/<id>/installed/latest/<agent>/<target>`. */
  raw_latest_url: string;
  role: FileEntry['role'];
  /** Hex sha256 of the bytes as installed for the agent. */
  sha256: string;
}

/** Spec `install[<agent>]`: the files as installed ({@link InstallFile}), manual steps, the per-agent zip. */
export interface InstallEntry {
  files: InstallFile[];
  manual_steps: ManualStep[];
  zip_url: string;
}

/** The published record. Field order follows the spec's tables. */
export type PublishedRecord = Omit<Manifest, 'files' | 'compatibility' | 'tested' | 'requires' | 'security'> & {
  files: PublishedFileEntry[];
  compatibility: Record<Agent, CompatibilityLevel>;
  requires: { tools: string[]; env: string[]; mcp: string[] };
  tested: Omit<Manifest['tested'], 'per_agent'> & { per_agent: Record<Agent, 'pass' | 'fail' | 'untested'> };
  security: Manifest['security'] & { scripts: string[] };
  featured: boolean;
  deprecated: boolean;
  credits: { title: string; url: string }[];
  counts: { rules: number; skills: number; mcp: number };
  url: string;
  api_url: string;
  source_zip_url: string;
  verification: Verification;
  install: Record<Agent, InstallEntry>;
  /** Context cost per agent: bytes and estimated tokens loaded always and on demand (`layout/context-cost.ts`; DESIGN.md section 8, "Context cost"). */
  context: Record<Agent, ContextCost>;
  /** What this version lets the agent run and reach, derived from its files (`capabilities.ts`; issue 54). */
  capabilities: Capabilities;
};

/** Language of a file from its extension (DESIGN.md section 3). */
export function languageOf(path: string): string {
  const ext = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
  return LANGS[ext] ?? 'text';
}

const LANGS: Record<string, string> = {
  md: 'markdown', mdc: 'markdown', markdown: 'markdown', json: 'json', yaml: 'yaml', yml: 'yaml', toml: 'toml',
  sh: 'shell', bash: 'shell', py: 'python', ts: 'typescript', js: 'javascript', mjs: 'javascript', txt: 'text',
  sql: 'sql', gd: 'gdscript', html: 'html', css: 'css',
};
