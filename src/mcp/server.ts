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
import { DEFAULT_MAX_REQUEST_BODY_SIZE, readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  JSONRPC_VERSION,
  JSONRPCRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues, invalidParams, refuseMalformedParams, showValue } from './params.js';
import { wireMessage, withWireMessage } from './protocol-error.js';
import { createSkillResources, SKILL_TEMPLATES } from './resources.js';
import { createSkillFolders } from './skill-folders.js';
import { createSkillsExtension, SKILLS_EXTENSION, SKILLS_EXTENSION_SETTINGS, type SkillsPageSizes } from './skills.js';
import { GetSkillRequestSchema, ListSkillsRequestSchema, ReadDirectoryRequestSchema } from './skills-requests.js';
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
  'Sets of loadouts a team installs together are bundles: search_loadouts lists those that match, get_bundle reads one. ' +
  'Skills can be read without installing them, as resources skill://<loadout>/<skill>/SKILL.md (skills/list and skills/get give their digests; skill://<loadout>/<version>/<skill>/SKILL.md pins a version).';

/**
 * Server capabilities: tools and resources, neither of which changes while the server runs,
 * and the Skills extension with `resources/directory/read` (SEP-2640, "Capability
 * Declaration", under `extensions` as SEP-2133 negotiates them).
 */
export const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  extensions: { [SKILLS_EXTENSION]: SKILLS_EXTENSION_SETTINGS },
} as const;

/** Options of {@link createMcpHandler}: page sizes of the paginated methods (defaults for serving; tests use small ones). */
export interface McpOptions {
  resourcesPageSize?: number;
  skillsPageSizes?: SkillsPageSizes;
  /**
   * Answer a lone `tools/call` without a per-request SDK server (see {@link callToolDirectly});
   * default true. False sends every request through the SDK: the tests compare both paths.
   */
  directToolCalls?: boolean;
  /** Called after each tool call with the tool's name and its duration in seconds (for the metrics). */
  onToolCall?: (tool: string, seconds: number) => void;
}

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
export function createMcpHandler(ctx: ToolContext, options: McpOptions = {}): McpHandler {
  const tools = describeTools();
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const folders = createSkillFolders(ctx.catalogue);
  const resources = createSkillResources(ctx.catalogue, folders, options.resourcesPageSize);
  const skills = createSkillsExtension(ctx.catalogue, folders, options.skillsPageSizes);
  const direct = options.directToolCalls ?? true;

  /**
   * Runs `tools/call`: the tool's result, a tool error (`isError`) for what the arguments name
   * but the catalogue lacks, or a protocol error for bad arguments.
   * @throws McpError -32602 for an unknown tool or arguments its input schema refuses
   */
  const callTool = async (params: CallToolRequest['params']): Promise<CallToolResult> => {
    const tool = byName.get(params.name);
    if (tool === undefined) throw invalidParams(`Invalid params for tools/call: params.name is ${showValue(params.name)} (expected one of ${TOOLS.map((t) => t.name).join(', ')})`);
    const args = params.arguments ?? {};
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw invalidParams(`Invalid arguments for ${tool.name}: ${describeIssues(parsed.error, args, '', { known: Object.keys(tool.input.shape), one: `an argument of ${tool.name}`, many: `arguments of ${tool.name}` })}`);
    const started = performance.now();
    const outcome = await tool.run(parsed.data, ctx);
    options.onToolCall?.(tool.name, (performance.now() - started) / 1000);
    if ('error' in outcome) return { content: [{ type: 'text', text: outcome.error }], isError: true };
    return { content: [{ type: 'text', text: tool.render(outcome.value) }], structuredContent: outcome.value as Record<string, unknown> };
  };

  // One JSON Schema validator for every request: the SDK would otherwise build a new Ajv
  // instance for each stateless request's Server, which was the largest cost of a tool call.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const newServer = (): Server => {
    const server = new Server({ ...SERVER_INFO }, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, bare((request) => {
      refuseCursor('tools/list', request.params?.cursor);
      return { tools };
    }));
    server.setRequestHandler(CallToolRequestSchema, bare((request) => callTool(request.params)));
    server.setRequestHandler(ListResourcesRequestSchema, bare((request) => resources.list(request.params?.cursor)));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, bare((request) => {
      refuseCursor('resources/templates/list', request.params?.cursor);
      return { resourceTemplates: SKILL_TEMPLATES };
    }));
    server.setRequestHandler(ReadResourceRequestSchema, bare((request) => resources.read(request.params.uri)));
    server.setRequestHandler(ListSkillsRequestSchema, bare((request) => skills.list(request.params?.cursor)));
    server.setRequestHandler(GetSkillRequestSchema, bare((request) => skills.get(request.params.uri)));
    server.setRequestHandler(ReadDirectoryRequestSchema, bare((request) => skills.readDirectory(request.params.uri, request.params.cursor)));
    return server;
  };

  return async (request) => {
    // Not JSON: the transport answers 415 without reading the body.
    if (!isJsonContentType(request.headers.get('content-type'))) return serve(request);
    // The body is read here, with the transport's own limit, so that every request's params
    // are checked before the SDK dispatches them (see params.ts for why).
    const body = await readBody(request);
    if (body.tooLarge) {
      const error = { jsonrpc: '2.0', error: { code: -32000, message: requestBodyTooLargeMessage(DEFAULT_MAX_REQUEST_BODY_SIZE) }, id: null };
      return new Response(JSON.stringify(error), { status: 413, headers: { 'content-type': 'application/json' } });
    }
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(body.text);
    } catch {
      // Not JSON: the transport answers it (-32700) after its Accept check.
      return serve(new Request(request, { body: body.text }));
    }
    return refuseMalformedParams(parsedBody) ?? (direct ? callToolDirectly(request, parsedBody, callTool) : undefined) ?? serve(request, parsedBody);
  };

  async function serve(request: Request, parsedBody?: unknown): Promise<Response> {
    const server = newServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
    } finally {
      await server.close();
    }
  }
}

/**
 * `handler`, with any `McpError` it throws sent without the SDK's `MCP error <code>: `
 * prefix in its message (see protocol-error.ts), so that no error of this server reaches a
 * client prefixed twice, whoever built it.
 */
function bare<A extends unknown[], R>(handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      throw withWireMessage(error);
    }
  };
}

/**
 * The request body as text, within the transport's limit ({@link DEFAULT_MAX_REQUEST_BODY_SIZE},
 * 4 MiB), decoded as the SDK's `readRequestBody` does. A declared `Content-Length` within the
 * limit is read in one go, which the Node server adapter does without building a web stream
 * (Node's HTTP parser holds the body to that length); anything else is streamed by the SDK,
 * which stops once the limit is passed.
 */
async function readBody(request: Request): Promise<{ tooLarge: true } | { tooLarge: false; text: string }> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/u.test(declared) && Number(declared) <= DEFAULT_MAX_REQUEST_BODY_SIZE) return { tooLarge: false, text: await request.text() };
  return readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
}

/**
 * Answers a lone `tools/call` request the way the SDK's transport and `Server` would, but
 * without building them: a stateless request otherwise gets a new SDK `Server` and
 * `WebStandardStreamableHTTPServerTransport`, whose set-up, per-request objects (abort
 * controller, stream mapping, request info) and tear-down cost about as much as a search
 * itself (DESIGN.md section 7: MCP `search_loadouts` at least half the search API's
 * throughput; `bench/search.ts` measures it).
 *
 * Taken only where the SDK would reach the tool handler: an `Accept` listing both
 * `application/json` and `text/event-stream`, no `Mcp-Protocol-Version` or a supported one,
 * and one message that the SDK's own schemas read as a JSON-RPC request and a `tools/call`
 * without a task. Everything else returns undefined and goes through the SDK, which gives
 * its errors (406, 400, -32700, ...). The answer is the SDK's: HTTP 200 with the JSON-RPC
 * response, the result, or the error a thrown `McpError` makes (Protocol's `_onrequest`).
 */
export function callToolDirectly(request: Request, body: unknown, callTool: (params: CallToolRequest['params']) => Promise<CallToolResult>): Promise<Response> | undefined {
  // Same checks and order as the transport's handlePostRequest and validateProtocolVersion.
  const accept = request.headers.get('accept');
  if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (typeof body !== 'object' || body === null || (body as { method?: unknown }).method !== 'tools/call') return undefined;
  const message = JSONRPCRequestSchema.safeParse(body);
  if (!message.success) return undefined;
  const call = CallToolRequestSchema.safeParse(body);
  if (!call.success || call.data.params.task !== undefined) return undefined;
  const id = message.data.id;
  const answer = (payload: object): Response => new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
  return callTool(call.data.params).then(
    (result) => answer({ result, jsonrpc: JSONRPC_VERSION, id }),
    (error: unknown) => {
      const { code, data } = error as { code?: unknown; data?: unknown };
      return answer({ jsonrpc: JSONRPC_VERSION, id, error: { code: Number.isSafeInteger(code) ? code : ErrorCode.InternalError, message: wireMessage(error), ...(data === undefined ? {} : { data }) } });
    },
  );
}

/**
 * Refuses a cursor for a list this server answers in one page: it never gives out a
 * `nextCursor` there, so any cursor is one it did not give (MCP specification, "Pagination":
 * an invalid cursor is -32602).
 * @throws McpError -32602 when `cursor` is given
 */
function refuseCursor(method: string, cursor: string | undefined): void {
  if (cursor !== undefined) throw invalidParams(`Invalid params for ${method}: params.cursor is ${showValue(cursor)} (expected no cursor: ${method} has one page)`);
}
