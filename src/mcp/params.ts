/**
 * Request params of the MCP server, checked before the SDK dispatches a request, so that a
 * malformed request is always JSON-RPC -32602 "Invalid params" with one line that names the
 * parameter and what was expected (JSON-RPC 2.0 section 5.1; README "MCP server").
 *
 * Why before the SDK: `@modelcontextprotocol/sdk` 1.32.2 parses a request against its method's
 * schema before calling the handler and answers a failure with -32603 and the ZodError's JSON
 * (modelcontextprotocol/typescript-sdk issue #2284, open), and its Streamable HTTP transport
 * answers a request whose `params` is not an object (`null`, an array) with HTTP 400 and -32700
 * "Parse error" for the whole body. Checking every request here with the SDK's own request
 * schemas leaves the SDK nothing to refuse.
 */
import { ClientRequestSchema, ErrorCode, JSONRPC_VERSION, RequestSchema, type JSONRPCErrorResponse, type McpError } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { protocolError } from './protocol-error.js';
import { SKILLS_REQUEST_SCHEMAS } from './skills-requests.js';

/**
 * The request schema of each client method the MCP specification defines, by method, and of
 * the Skills extension's (SEP-2640: `skills/list`, `skills/get`, `resources/directory/read`).
 */
const REQUEST_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map([...ClientRequestSchema.options.map((schema): [string, z.ZodType] => [schema.shape.method.value, schema as z.ZodType]), ...SKILLS_REQUEST_SCHEMAS]);

/** At most this many problems are spelled out in one message; the rest are counted. */
const MAX_PROBLEMS = 3;

/** A value is shown as JSON, cut to this many characters. */
const MAX_SHOWN = 60;

/**
 * `value` as JSON on one line, at most `MAX_SHOWN` characters (`…` marks a cut), or
 * `missing` for undefined. JSON escapes line breaks, and U+2028/U+2029 are escaped too, so
 * nothing a client sends can break the message's line.
 */
export function showValue(value: unknown): string {
  if (value === undefined) return 'missing';
  const json = (JSON.stringify(value) ?? String(value)).replace(/[\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN - 1)}…` : json;
}

/** `params.arguments`, `tags[2]`, `params["a b"]`: `root` then the issue path. */
function showPath(root: string, path: readonly PropertyKey[]): string {
  let shown = root;
  for (const key of path) {
    if (typeof key === 'number') shown += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/u.test(key)) shown += shown === '' ? key : `.${key}`;
    else shown += `[${showValue(String(key))}]`;
  }
  return shown;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const TYPE_WORDS: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
};

const bound = (origin: string, relation: string, limit: unknown): string => {
  if (origin === 'string') return `${relation === '>=' ? 'at least' : 'at most'} ${String(limit)} characters`;
  if (origin === 'array' || origin === 'set') return `${relation === '>=' ? 'at least' : 'at most'} ${String(limit)} items`;
  return `a number ${relation} ${String(limit)}`;
};

/** What an issue expected, as the words after "expected". */
function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_WORDS[issue.expected] ?? `a value of type ${issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1 ? showValue(issue.values[0]) : `one of ${issue.values.map((v) => showValue(v)).join(', ')}`;
    case 'too_small':
      return bound(issue.origin, issue.inclusive === false ? '>' : '>=', issue.minimum);
    case 'too_big':
      return bound(issue.origin, issue.inclusive === false ? '<' : '<=', issue.maximum);
    case 'invalid_format':
      // The schemas in schemas.ts give each pattern its own words; zod's default names the pattern.
      return issue.message.startsWith('Invalid') ? `text matching ${issue.pattern ?? issue.format}` : issue.message;
    case 'invalid_union':
      return 'one of the forms the schema allows';
    default:
      return issue.message;
  }
}

/** How the keys of a parsed object are called in a message, and which exist. */
export interface KeyWords {
  /** Every key the object may have. */
  known: readonly string[];
  /** One unknown key "is not" this, e.g. `an argument of search_loadouts`. */
  one: string;
  /** Several "are not" this, e.g. `arguments of search_loadouts`. */
  many: string;
}

/**
 * One line for a zod failure: `<path> is <value> (expected <what>)` per problem, `; `
 * between them, the first three spelled out and the rest counted (`; and 12 more`).
 * Unknown keys are one problem: `"q" is not an argument of search_loadouts (expected only
 * query, agent, …)`. Values and keys are shown as JSON, so the line holds no line break.
 * @param input what was parsed, to show the offending values
 * @param root the name of the parsed value (`` when issue paths start at `params`)
 * @param keys how to speak of unknown keys, and the known ones
 */
export function describeIssues(error: z.ZodError, input: unknown, root: string, keys?: KeyWords): string {
  const problems = error.issues.map((issue) => {
    const name = showPath(root, issue.path) || 'params';
    if (issue.code !== 'unrecognized_keys') return `${name} is ${showValue(valueAt(input, issue.path))} (expected ${expectedOf(issue)})`;
    const shown = issue.keys.slice(0, MAX_PROBLEMS).map((k) => showValue(k)).join(', ');
    const listed = issue.keys.length > MAX_PROBLEMS ? `${shown} and ${issue.keys.length - MAX_PROBLEMS} more` : shown;
    const expected = keys === undefined ? '' : ` (expected only ${keys.known.join(', ') || 'none'})`;
    return issue.keys.length === 1 ? `${listed} is not ${keys?.one ?? `a key of ${name}`}${expected}` : `${listed} are not ${keys?.many ?? `keys of ${name}`}${expected}`;
  });
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  const line = problems.length > MAX_PROBLEMS ? `${shown}; and ${problems.length - MAX_PROBLEMS} more` : shown;
  return line.replace(/[\r\n\u2028\u2029]+/gu, ' ');
}

/** `McpError(-32602)` whose JSON-RPC message is `message` alone (see protocol-error.ts). */
export function invalidParams(message: string): McpError {
  return protocolError(ErrorCode.InvalidParams, message);
}

/** The JSON-RPC parts of a request whose envelope is well formed (`jsonrpc`, `id`, `method`, and nothing else but `params`). */
interface RequestEnvelope {
  id: string | number;
  method: string;
  params: unknown;
  hasParams: boolean;
}

function envelopeOf(message: unknown): RequestEnvelope | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, ...rest } = message as Record<string, unknown>;
  const idOk = typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
  const others = Object.keys(rest).filter((k) => k !== 'params');
  // Anything else is not a request with bad params but a bad message; the transport refuses those.
  if (jsonrpc !== JSONRPC_VERSION || !idOk || typeof method !== 'string' || others.length > 0) return undefined;
  return { id: id as string | number, method, params: rest['params'], hasParams: 'params' in rest };
}

/**
 * The -32602 error for one JSON-RPC message, or undefined when it is not a request or its
 * params are well formed. `params` is checked against the request schema of its method in
 * the MCP specification (the SDK's `ClientRequestSchema`) or in SEP-2640, or for other
 * methods only as an object; a method the server lacks is then left to "method not found"
 * (-32601).
 */
export function checkRequestParams(message: unknown): JSONRPCErrorResponse | undefined {
  const envelope = envelopeOf(message);
  if (envelope === undefined) return undefined;
  const schema = REQUEST_SCHEMAS.get(envelope.method) ?? RequestSchema;
  const request = envelope.hasParams ? { method: envelope.method, params: envelope.params } : { method: envelope.method };
  const parsed = schema.safeParse(request);
  if (parsed.success) return undefined;
  return {
    jsonrpc: JSONRPC_VERSION,
    id: envelope.id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${envelope.method}: ${describeIssues(parsed.error, request, '')}` },
  };
}

/**
 * The answer to a POST body (one JSON-RPC message or a batch) that holds a request with
 * malformed params, or undefined when it holds none. A single request gets its -32602
 * error. A batch is not run at all: each malformed request gets its -32602 error, and each
 * other request -32600 naming the first malformed one. HTTP status 200, as the SDK answers
 * a JSON-RPC error from a handler.
 */
export function refuseMalformedParams(body: unknown): Response | undefined {
  const messages = Array.isArray(body) ? body : [body];
  const errors = messages.map((m) => checkRequestParams(m));
  const first = errors.find((e) => e !== undefined);
  if (first === undefined) return undefined;
  let answer: JSONRPCErrorResponse | JSONRPCErrorResponse[] = first;
  if (Array.isArray(body)) {
    answer = [];
    for (const [i, message] of messages.entries()) {
      const envelope = envelopeOf(message);
      if (envelope === undefined) continue;
      answer.push(errors[i] ?? { jsonrpc: JSONRPC_VERSION, id: envelope.id, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: not run, because request ${showValue(first.id)} of the same batch has invalid params` } });
    }
  }
  return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
}
