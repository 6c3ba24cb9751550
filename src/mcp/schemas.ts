/**
 * Input and output schemas (zod) of the MCP tools: the six of the spec and `get_bundle` (spec "Endpoints", `POST /mcp`). The
 * inputs are strict: an unknown or malformed argument is a protocol error (-32602), not a
 * tool error. A pattern's message is the words after "expected" in that error (params.ts). The outputs describe `structuredContent`; tests validate every result against
 * them, and MCP clients do the same with the JSON Schema form in `tools/list`.
 */
import { z } from 'zod';
import { CATEGORIES, COMPATIBILITY_LEVELS, HAS_VALUES, PUBLISHED_AGENTS, ROLES, RUNS_VALUES, SLUG_PATTERN } from '../catalogue/vocabulary.js';
import { MAX_ALWAYS_TOKENS, MAX_LIMIT, MAX_OFFSET, MAX_QUERY_LENGTH } from '../search/query.js';
import { CONSENT_KINDS } from '../capabilities/consent.js';

const loadoutId = z.string().regex(SLUG_PATTERN, 'a lowercase slug such as "nextjs-app-router"').describe('Loadout id, e.g. "nextjs-app-router" (from search_loadouts).');
const agent = z.enum(PUBLISHED_AGENTS);

export const searchInput = z.strictObject({
  query: z.string().max(MAX_QUERY_LENGTH).optional().describe('Plain words describing the project or task, e.g. "nextjs server actions" or "python api testing". Typos and unfinished words are tolerated. Omit to list every loadout (featured first, then most recently updated).'),
  agent: agent.optional().describe('Only loadouts that support this coding agent.'),
  tags: z.array(z.string().regex(SLUG_PATTERN, 'a lowercase slug such as "react"')).max(10).optional().describe('Only loadouts that have every one of these stacks or categories, e.g. ["react", "typescript"].'),
  category: z.enum(CATEGORIES).optional().describe('Only loadouts in this category.'),
  verified: z.boolean().optional().describe('Only loadouts whose automated checks passed (true) or did not (false).'),
  has: z.enum(HAS_VALUES).optional().describe('Only loadouts that include at least one skill, MCP server, rule, hook (a command the agent runs on its events) or script.'),
  runs: z.enum(RUNS_VALUES).optional().describe('"nothing": only loadouts that start no MCP server, bring no hook or script and grant no tool or approval (text only); "something": only those that do.'),
  max_always_tokens: z.number().int().min(0).max(MAX_ALWAYS_TOKENS).optional().describe('Only loadouts that add at most this many tokens (estimated, 4 bytes each) to the context at the start of every session: for the agent given, or else for every agent the loadout supports.'),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(10).describe(`How many results to return, 1 to ${MAX_LIMIT}.`),
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0).describe('How many results to skip, for paging.'),
});

const counts = z.object({ rules: z.number().int(), skills: z.number().int(), mcp: z.number().int() });
const compatibility = z.record(z.string(), z.enum(COMPATIBILITY_LEVELS));

export const searchResult = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  version: z.string(),
  score: z.number(),
  categories: z.array(z.string()),
  stacks: z.array(z.string()),
  compatibility,
  counts,
  always_tokens: z.record(z.string(), z.number().int()),
  capabilities: z.object({ runs: z.enum(RUNS_VALUES), hooks: z.number().int(), scripts: z.number().int() }).optional().describe('Whether it runs anything (MCP servers, hooks, scripts, tool grants), and how many hooks and scripts it brings; get_loadout gives the whole list. Absent in catalogues built before capability lists.'),
  verified: z.boolean(),
  featured: z.boolean(),
  deprecated: z.boolean(),
  updated: z.string().nullable(),
  url: z.string(),
  api_url: z.string(),
});

export const searchOutput = z.object({
  query: z.string(),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  results: z.array(searchResult),
  suggestions: z.array(z.object({ kind: z.enum(['id', 'stack', 'category']), value: z.string() })).optional().describe('When nothing matched: up to three loadout ids, stacks or categories close to the query, best first.'),
  bundles: z
    .array(
      z.object({
        kind: z.literal('bundle'),
        id: z.string(),
        title: z.string(),
        summary: z.string(),
        version: z.string(),
        score: z.number(),
        loadouts: z.array(z.object({ id: z.string(), range: z.string(), resolved: z.string() })),
        url: z.string(),
        api_url: z.string(),
      }),
    )
    .optional()
    .describe('When the catalogue has bundles: those that match the query (sets of loadouts installed as one; call get_bundle for one), best first, not counted in total.'),
});

export const getLoadoutInput = z.strictObject({ id: loadoutId });

const fileSummary = z.object({
  path: z.string(),
  role: z.enum(ROLES),
  description: z.string(),
  agent: z.string().nullable(),
  skill: z.string().nullable(),
  bytes: z.number().int(),
  lang: z.string(),
  sha256: z.string(),
  raw_url: z.string(),
  raw_latest_url: z.string(),
});

/** A list of a capability list: items as the record publishes them (their shape is `api/capabilities.schema.json`'s). */
const capabilityItems = z.array(z.unknown());

/** A version's capability list (`tree-format/capabilities.ts`, `api/capabilities.schema.json`). */
const capabilityList = z.looseObject({
  runs: z.enum(RUNS_VALUES),
  digest: z.string(),
  mcp_servers: capabilityItems,
  hooks: capabilityItems,
  permissions: capabilityItems,
  scripts: capabilityItems,
  network: capabilityItems,
  env: capabilityItems,
});

/** One thing that needs the user's yes before it is installed (`capabilities/consent.ts`). */
const consentItem = z.object({
  kind: z.enum(CONSENT_KINDS),
  file: z.string(),
  subject: z.string(),
  key: z.string(),
  value: z.string(),
  message: z.string().describe('What it does and for which agents, in one sentence.'),
});

/** The published record without file contents (`get_loadout_file` reads those). */
export const getLoadoutOutput = z.looseObject({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  highlights: z.array(z.string()),
  version: z.string(),
  license: z.string(),
  categories: z.array(z.string()),
  stacks: z.array(z.string()),
  compatibility,
  counts,
  featured: z.boolean(),
  deprecated: z.boolean(),
  updated: z.string().optional(),
  files: z.array(fileSummary),
  verification: z.looseObject({ level: z.string(), status: z.string(), verified: z.boolean(), label: z.string() }),
  capabilities: capabilityList
    .extend({ agents: z.record(z.string(), z.object({ runs: z.enum(RUNS_VALUES), digest: z.string() })) })
    .nullable()
    .describe('What this version lets the agent run and reach, derived from its files: MCP servers with the package, registry and pin of what they start, hooks, tool grants and permission modes, scripts, hosts its instructions reach, variables it reads; runs "nothing" for text only. Null in catalogues built before capability lists.'),
  needs_consent: z.array(consentItem).describe('What of it needs the user\'s yes before it is installed (hooks, permission modes, auto-approval, wildcard tool grants): loadout install asks first, and the agents\' plugins leave it out. Empty when nothing does.'),
  versions: z.array(z.string()).describe('Every published version, oldest first.'),
  url: z.string(),
  api_url: z.string(),
  source_zip_url: z.string(),
});

export const getBundleInput = z.strictObject({ id: z.string().regex(SLUG_PATTERN, 'a lowercase slug such as "web-team-stack"').describe('Bundle id, e.g. "web-team-stack" (from the bundles of search_loadouts).') });

const contextSize = z.object({ bytes: z.number().int(), tokens: z.number().int() });
const contextCost = z.object({ always: contextSize, on_demand: contextSize });

/** A bundle's published record (`api/bundles/<id>.json`): its loadouts resolved, what they cost and run together, its plugin and versions. */
export const getBundleOutput = z.looseObject({
  id: z.string(),
  type: z.literal('bundle'),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  version: z.string(),
  license: z.string(),
  loadouts: z
    .array(
      z.looseObject({
        id: z.string(),
        range: z.string(),
        agents: z.array(z.enum(PUBLISHED_AGENTS)).nullable(),
        resolved: z.string(),
        latest: z.string(),
        satisfying: z.array(z.string()),
        title: z.string(),
        summary: z.string(),
        url: z.string(),
        api_url: z.string(),
      }),
    )
    .describe('Each loadout with the semver range the bundle takes it at and the newest published version in that range (resolved).'),
  context: z.record(z.string(), contextCost).describe('The loadouts\' context costs added up per agent (estimated tokens, 4 bytes each).'),
  capabilities: z.looseObject({ runs: z.enum(['nothing', 'something']), digest: z.string() }).describe('The union of the loadouts\' capability lists: the MCP servers, hooks, scripts and grants they bring together.'),
  plugin: z.looseObject({ name: z.string(), marketplace: z.string(), install: z.string() }).nullable(),
  versions: z.array(z.looseObject({ version: z.string(), latest: z.boolean() })).describe('Every published version of the bundle, oldest first.'),
  url: z.string(),
  api_url: z.string(),
});

export const getFileInput = z.strictObject({
  id: loadoutId,
  path: z.string().min(1).max(500).describe('File path inside the loadout, as listed by get_loadout, e.g. "AGENTS.md" or "skills/add-route/SKILL.md".'),
  version: z.string().regex(/^(?:\d+\.\d+\.\d+|latest)$/u, 'MAJOR.MINOR.PATCH such as "1.2.0", or "latest"').default('latest').describe('A published version such as "1.2.0", or "latest" (the default).'),
});

export const getFileOutput = z.object({
  id: z.string(),
  version: z.string(),
  latest: z.boolean(),
  path: z.string(),
  lang: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  raw_url: z.string(),
  content: z.string(),
});

export const installInput = z.strictObject({
  id: loadoutId,
  agent: agent.describe('The coding agent to install for.'),
});

export const installOutput = z.object({
  id: z.string(),
  version: z.string(),
  agent: z.string(),
  compatibility: z.enum(COMPATIBILITY_LEVELS),
  command: z.string().describe('A ready-to-run install command through npx, pinned to this version: the first of `commands`.'),
  commands: z
    .array(z.object({ route: z.enum(['catalogue', 'registry']), command: z.string(), trusts: z.string() }))
    .describe("The npx commands, the one to use first: the catalogue's own CLI (trusts whoever serves the catalogue), and the npm registry's at an exact version when it is published there; a signed catalogue leads with the registry's."),
  plugin: z
    .union([
      z.object({ route: z.enum(['url', 'folder', 'git', 'zip']), commands: z.array(z.string()), note: z.string() }),
      z.object({ route: z.literal('none'), why: z.string(), todo: z.string() }),
    ])
    .nullable()
    .describe("The agent's own plugin manager: the commands that install the loadout as a plugin from this catalogue (run them in order), or why none fits this catalogue and what to do; null when the catalogue publishes no plugins. A plugin may not carry every file: the npx command installs the whole loadout."),
  zip_url: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      target: z.string(),
      raw_url: z.string().describe("The address of the file's bytes as installed for this agent (links rewritten, rules translated), the bytes `sha256` names; in catalogues built before issue 57, the author's file."),
      raw_latest_url: z.string().optional().describe('The same under `latest`; absent in catalogues built before issue 57.'),
      role: z.enum(ROLES),
      sha256: z.string().describe('Hex sha256 of the file as installed for this agent (rules translated for it), served at `raw_url`.'),
    }),
  ),
  manual_steps: z.array(z.looseObject({ kind: z.string(), text: z.string(), path: z.string() })),
  capabilities: capabilityList.nullable().describe("What this agent's install lets it run and reach (the record's capability list, the items this agent's install carries). Null in catalogues built before capability lists."),
  needs_consent: z.array(consentItem).describe("What of this agent's install needs the user's yes: `loadout install` shows it and writes nothing until the user agrees (or passes --accept-capabilities). Empty when nothing does."),
  agent_asks: z.array(z.object({ text: z.string(), source: z.string() })).describe('What the agent itself asks the user to approve on first use of what the install writes (trusting the folder, starting its MCP servers, running their tools), each with the vendor page it comes from.'),
});

export const listAgentsInput = z.strictObject({});

export const listAgentsOutput = z.object({
  agents: z.array(z.object({ id: z.string(), authoring: z.boolean(), adapter: z.string().nullable(), skills_dir: z.string(), loadouts: z.number().int() })),
});

export const listTagsInput = z.strictObject({
  limit: z.number().int().min(1).max(1000).default(200).describe('At most this many stacks and this many categories, most used first.'),
});

const tagCount = z.object({ tag: z.string(), count: z.number().int() });
export const listTagsOutput = z.object({ stacks: z.array(tagCount), categories: z.array(tagCount), total_stacks: z.number().int() });
