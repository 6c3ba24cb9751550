/**
 * TypeScript shapes of the authoring form (spec: "Loadout record (authoring form)"). The JSON
 * Schema in `schema/loadout.schema.json` is the source of truth for validation; these types
 * describe a manifest that has passed it.
 */
import type { AuthoringAgent, Category, CompatibilityLevel, Role } from './vocabulary.js';

/** Spec "File entry". `install_to` maps an agent to a target path, or null for "not installed". */
export interface FileEntry {
  path: string;
  role: Role;
  description: string;
  agent?: AuthoringAgent;
  skill?: string;
  install_to?: Partial<Record<AuthoringAgent, string | null>>;
}

/** Spec "Tested". Dates are `YYYY-MM-DD`. */
export interface Tested {
  status: 'passing' | 'failing' | 'partial' | 'untested';
  last_run: string | null;
  per_agent?: Partial<Record<AuthoringAgent, 'pass' | 'fail' | 'untested'>>;
  fixture: string | null;
}

/** Spec "Security". `network` says whether the content uses the network. */
export interface Security {
  scanned: boolean;
  scanner?: string;
  verdict?: 'clean' | 'flagged';
  network: boolean;
  scripts?: string[];
  notes?: string;
}

/** Spec `requires`: each list defaults to empty. */
export interface Requires {
  tools?: string[];
  env?: string[];
  mcp?: string[];
}

/** A `loadout.yaml` that validates against the authoring schema. */
export interface Manifest {
  id: string;
  type: 'loadout';
  title: string;
  summary: string;
  description: string;
  highlights: string[];
  version: string;
  license: string;
  author: { name: string; url?: string; github?: string };
  source?: { repo: string; path?: string; commit?: string };
  categories: Category[];
  stacks: string[];
  files: FileEntry[];
  compatibility?: Partial<Record<AuthoringAgent, CompatibilityLevel>>;
  requires?: Requires;
  tested: Tested;
  security: Security;
  featured?: boolean;
  deprecated?: boolean;
  last_checked: string;
  published?: string;
  updated?: string;
}

/** The name of the manifest file inside a loadout folder (DESIGN.md section 3). */
export const MANIFEST_FILE = 'loadout.yaml';
