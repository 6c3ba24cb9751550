/**
 * The API description document (spec "API description document"), served at `GET /api/v1`
 * with a static copy at `api/v1/index.json` (DESIGN.md section 5).
 */
import { AUTHORING_AGENTS, CATEGORIES, LICENCES, LIMITS } from '../../catalogue/vocabulary.js';
import { docsUrl, schemaUrl } from '../../tree-format/addresses.js';
import type { PublishedKey } from '../../tree-format/signing/keys.js';

/** Which server-side pieces are configured (spec: `config`, booleans). */
export interface ServiceConfigReport {
  database: boolean;
  challenge_secret: boolean;
  challenge_site_key: boolean;
}

/** The description document. `version` is the integer 1 (spec "Versioning" 1). */
export interface ApiDescription {
  name: string;
  version: 1;
  docs: string;
  submissions_open: boolean;
  config: ServiceConfigReport;
  endpoints: Record<string, string>;
  fields: Record<string, { type: string; required: boolean | 'browsers'; rule: string }>;
  schema: string;
  /**
   * The consumer CLI this catalogue serves (DESIGN.md section 2, distribution): `url` the
   * pinned tarball's address (`npx -y <url> install …`), `integrity` its `sha512-<base64>`.
   * Absent when the build had no bundle to pack.
   */
  cli?: CliDescription;
  /**
   * The catalogue's signing keys, present when its tree is signed (DESIGN.md "Signing";
   * docs/signing.md): `keyid` is the sha256 hex of the raw 32-byte public key, `algorithm`
   * `ed25519`, `public_key` the raw 32 bytes in base64 (RFC 8032 section 5.1.5).
   */
  signing?: { keys: PublishedKey[] };
  /** The catalogue as a plugin marketplace (DESIGN.md "Native plugins"), when the build wrote its plugins. */
  plugins?: PluginsDescription;
}

/**
 * `plugins` of the description document: the marketplace's `name` (the `@<name>` of
 * `/plugin install <id>@<name>`), `marketplace` the Claude Code marketplace to add by URL
 * (`claude plugin marketplace add <marketplace>`), `folder` the folder marketplace's address in
 * the tree (`plugins/`, whose vendor files are dot files: cloned from `git`, or used from a
 * built tree on disk), and `git` the repository branch that `loadout publish` pushes it to,
 * when one is configured.
 */
export interface PluginsDescription {
  name: string;
  marketplace: string;
  folder: string;
  git?: { repository: string; branch: string };
}

/**
 * `cli` of the description document; `registry` names the package on the npm registry
 * (`npx -y <package>@<version>`) only when the build was told it is published (`loadout build
 * --cli-published`): the pages and MCP show the registry's command only then.
 */
export interface CliDescription {
  url: string;
  version: string;
  integrity: string;
  registry?: { package: string; version: string };
}

/** What the description document names beyond the service: the consumer CLI and the signing keys, when the build has them. */
export interface PublishedExtras {
  cli?: CliDescription | undefined;
  signingKeys?: readonly PublishedKey[] | undefined;
  plugins?: PluginsDescription | undefined;
}

/** The submission field rules (spec "POST /api/v1/submissions body"). */
export const SUBMISSION_FIELDS: ApiDescription['fields'] = {
  name: { type: 'string', required: true, rule: '3 to 60 characters' },
  summary: { type: 'string', required: true, rule: '20 to 200 characters' },
  description: { type: 'string', required: false, rule: '20 to 4000 characters' },
  highlights: { type: 'array of string', required: false, rule: '1 to 8 strings, each at most 200 characters' },
  category: { type: 'string', required: true, rule: `one of ${CATEGORIES.join(', ')}` },
  stacks: { type: 'array of string', required: true, rule: '1 to 8 lowercase hyphenated slugs' },
  agents: { type: 'array of string', required: true, rule: `values from ${AUTHORING_AGENTS.join(', ')}` },
  files: {
    type: 'array of {path, content}',
    required: true,
    rule: `1 to ${LIMITS.files} entries; an entry for AGENTS.md is required; each at most ${LIMITS.fileBytes / 1024} KB; total at most ${LIMITS.totalBytes / 1024} KB; paths relative, normalised, unique, UTF-8 text`,
  },
  licence: { type: 'string', required: true, rule: `one of ${LICENCES.join(', ')}` },
  author: { type: 'object', required: false, rule: '{name: string (1 to 100 characters), url?: http or https URL, github?: GitHub user name}' },
  contact_email: { type: 'string', required: false, rule: 'e-mail address; never published' },
  source_url: { type: 'string', required: false, rule: 'https URL' },
  notes: { type: 'string', required: false, rule: 'addressed to reviewers; at most 4000 characters' },
  rights_confirmed: { type: 'boolean', required: true, rule: 'must be true' },
  id: { type: 'string', required: false, rule: 'slug of at most 64 characters; derived from name when absent' },
  challenge_token: { type: 'string', required: 'browsers', rule: 'bot-challenge result (the ALTCHA widget\'s payload, or the vendor widget\'s token), sent with form_token; passes once' },
  form_token: { type: 'string', required: 'browsers', rule: 'from GET /api/v1/submissions/session; single use, 2 hours' },
};

/** The endpoints, `<METHOD> <path>` → one line. */
export const ENDPOINTS: Record<string, string> = {
  'GET /api/v1': 'This description document.',
  'GET /api/v1/search': 'Ranked search: q, agent, tags, category, verified, has (skills, mcp, rules, hooks, scripts), runs (nothing, something: the capability list), max_always_tokens (context at session start, for agent or every supported agent), limit (1-50, default 20), offset (default 0).',
  'POST /mcp': 'Read-only MCP server over Streamable HTTP (stateless).',
  'GET /mcp/server-card': 'MCP server card (experimental extension).',
  'GET /api/v1/submissions/session': 'A signed single-use form token and what the challenge widget needs (challenge_provider, challenge_site_key, challenge_url), for the browser form.',
  'GET /api/v1/submissions/challenge': 'A new signed ALTCHA proof-of-work challenge for the form\'s widget (CHALLENGE_PROVIDER altcha, the default).',
  'POST /api/v1/submissions': 'Submit a loadout (browser: form_token + challenge_token; agents: Authorization: Bearer <API_KEY>).',
  'GET /api/v1/submissions/{submission_id}': 'Status of a submission (as a page: /submissions/{submission_id}/).',
  'GET /healthz': 'Liveness: 200 while the process runs.',
  'GET /readyz': 'Readiness: 200 once the tree is loaded and the database answers, else 503 with a problem naming what is not ready.',
  'GET /api/loadouts.json': 'Every loadout, summary fields.',
  'GET /api/loadouts/{loadout_id}.json': 'The published record of a loadout.',
  'GET /api/loadouts/{loadout_id}/versions.json': 'Every published version with its date, file hashes and check counts.',
  'GET /api/tags.json': 'Stacks and categories with counts.',
  'GET /api/agents.json': 'The agents and where each reads its files.',
  'GET /api/schema.json': 'The authoring JSON Schema (draft 2020-12).',
  'GET /api/bundles.json': 'Every bundle (a set of loadouts, each with a semver range): its loadouts, their ranges and the versions they resolve to.',
  'GET /api/bundles/{bundle_id}.json': 'The published record of a bundle: its loadouts resolved, their combined context cost and capability list, its plugin and every version.',
  'GET /api/bundle.schema.json': 'The JSON Schema of bundles/<id>/bundle.yaml (draft 2020-12).',
  'GET /bundles/{bundle_id}/plugin-{version}.zip': 'The bundle as a Claude Code plugin that carries only dependencies, for the URL marketplace.',
  'GET /api/capabilities.schema.json': 'The JSON Schema of a version\'s capability list (`capabilities` of each record and of each version in versions.json): what it lets the agent run and reach.',
  'GET /raw/{loadout_id}/{version}/{file_path}': 'One file of a pinned version (immutable), or of latest.',
  'GET /download/{loadout_id}/{agent}.zip': 'Zip of the install tree for one agent.',
  'GET /download/{loadout_id}/source.zip': 'Zip of the loadout folder.',
  'GET /cli/loadout-{version}.tgz': 'The consumer CLI as an npm package with no dependencies: npx -y <url> install <loadout_id> --agent <agent>.',
  'GET /api/v1/snapshot.dsse.json': 'When the catalogue is signed: a DSSE envelope over the sha256 of every versions document and of api/loadouts.json, with generated_at and expires (docs/signing.md).',
  'GET /plugins/claude-marketplace.json': 'The catalogue as a Claude Code marketplace to add by URL: one entry per loadout, its plugin zip pinned by sha256.',
  'GET /download/{loadout_id}/plugin-{version}.zip': 'The loadout\'s native plugin (Agent Plugins 1.0, Claude Code, Gemini CLI and Cursor manifests) at one version.',
  'GET /api/v1/rotation.dsse.json': 'When the signing key was rotated: the new key list, signed by the previous key.',
};

/** Builds the description document for `baseUrl` (no trailing slash), with the consumer CLI and the signing keys of `extras` when the build has them. Pure. */
export function describeApi(baseUrl: string, submissionsOpen: boolean, config: ServiceConfigReport, extras: PublishedExtras = {}): ApiDescription {
  const { cli, signingKeys, plugins } = extras;
  return {
    name: 'Loadout Catalogue',
    version: 1,
    docs: `${docsUrl(baseUrl)}#submit`,
    submissions_open: submissionsOpen,
    config,
    endpoints: ENDPOINTS,
    fields: SUBMISSION_FIELDS,
    schema: schemaUrl(baseUrl),
    ...(cli === undefined ? {} : { cli }),
    ...(signingKeys === undefined || signingKeys.length === 0 ? {} : { signing: { keys: [...signingKeys] } }),
    ...(plugins === undefined ? {} : { plugins }),
  };
}
