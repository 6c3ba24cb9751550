/**
 * The read-only MCP server (spec "Endpoints", `POST /mcp`; DESIGN.md section 5), stateless
 * over Streamable HTTP: each request gets a fresh SDK `Server` and
 * `WebStandardStreamableHTTPServerTransport`, answering with JSON. The low-level `Server` is
 * used instead of `McpServer` because `McpServer` turns bad arguments into tool results,
 * while this server keeps them protocol errors (-32602) and tool errors for what the
 * arguments name but the catalogue lacks (STYLE.md, after the MCP TypeScript SDK). The tool
 * list is converted to JSON Schema once, at start.
 */
import { createRequire } from 'node:module';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createSkillResources, SKILL_TEMPLATES } from './resources.js';
import { TOOLS, type ToolContext } from './tools.js';

/** `serverInfo` name and version, also used by the server card. */
export const SERVER_INFO = { name: 'loadout-catalogue', title: 'Loadout Catalogue', version: packageVersion() } as const;

/** The package version: `serverInfo.version` and the server card's `version` (one value for both). */
function packageVersion(): string {
  // src/mcp/ and lib/mcp/ are both two levels below package.json.
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

/** What the server tells an agent at `initialize`. */
export const INSTRUCTIONS =
  'Read-only access to the Loadout Catalogue: loadouts are versioned bundles of AGENTS.md instructions, rules, skills and MCP configuration for coding agents. ' +
  'Typical use: search_loadouts with words about the project, get_loadout on the best result, then get_install_instructions for your agent. ' +
  'Skills can be read without installing them, as resources skill://<loadout>/<skill>/SKILL.md.';

/** Server capabilities: tools and resources, neither of which changes while the server runs. */
export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } } as const;

/** The tools as `tools/list` gives them: JSON Schema (draft 7) of the inputs and outputs, `readOnlyHint`. */
export function describeTools(): Tool[] {
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input, 'input'),
    outputSchema: jsonSchemaOf(tool.output, 'output'),
    annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }));
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
  return json as Tool['inputSchema'];
}

/** Answers one HTTP request to `/mcp`. */
export type McpHandler = (request: Request) => Promise<Response>;

/** Builds the handler; the tool list and the resource index are built here, once. */
export function createMcpHandler(ctx: ToolContext): McpHandler {
  const tools = describeTools();
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const resources = createSkillResources(ctx.catalogue);

  // One JSON Schema validator for every request: the SDK would otherwise build a new Ajv
  // instance for each stateless request's Server, which was the largest cost of a tool call.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const newServer = (): Server => {
    const server = new Server({ ...SERVER_INFO }, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const tool = byName.get(request.params.name);
      if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}" (expected one of ${TOOLS.map((t) => t.name).join(', ')})`);
      const parsed = tool.input.safeParse(request.params.arguments ?? {});
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error)}`);
      const outcome = await tool.run(parsed.data, ctx);
      if ('error' in outcome) return { content: [{ type: 'text', text: outcome.error }], isError: true };
      return { content: [{ type: 'text', text: tool.render(outcome.value) }], structuredContent: outcome.value as Record<string, unknown> };
    });
    server.setRequestHandler(ListResourcesRequestSchema, (request) => resources.list(request.params?.cursor));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: SKILL_TEMPLATES }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => resources.read(request.params.uri));
    return server;
  };

  return async (request) => {
    const server = newServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}

/** zod issues as `path: message; …` (e.g. `limit: Too big: expected number to be <=50`). */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length === 0 ? '(arguments)' : i.path.join('.')}: ${i.message}`).join('; ');
}
