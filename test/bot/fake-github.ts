/**
 * A stand-in for GitHub's REST API on 127.0.0.1 (STYLE.md Tests 12), implementing only the five
 * endpoints the bot may use (src/bot/github-client.ts lists them) and storing what it receives.
 *
 * It cannot drift from the real API: every request is checked against GitHub's published
 * OpenAPI description (`@octokit/openapi`, api.github.com, OpenAPI 3.0) with Ajv: the operation
 * must exist for that method and path, path and query parameters must match their schemas (no
 * unknown query parameter), and the JSON body must match the operation's request schema. Its
 * answers are built from GitHub's own examples in that description and are checked against the
 * operation's response schema too, so the fields the bot reads are the fields GitHub sends. A
 * request that does not match gets a 422 whose message names the mismatch, and is listed in
 * `violations`. GitHub's behaviour is kept where the bot depends on it: a second open pull request
 * for the same head and base is refused with 422, the head branch must exist (when the test says
 * how to know), `head=owner:branch` filters the list, labels add up.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { onTestFinished } from 'vitest';

/** The five operations of the bot: method and OpenAPI path. */
export const BOT_OPERATIONS = [
  ['get', '/repos/{owner}/{repo}/pulls'],
  ['post', '/repos/{owner}/{repo}/pulls'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['patch', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
] as const;

/** A pull request as the fake keeps it. */
export interface FakePull {
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  state: 'open' | 'closed';
  merged: boolean;
  labels: string[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
}

/** A request as received: method, path, query and parsed JSON body. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** A running fake. */
export interface FakeGitHub {
  /** The API root to use as GITHUB_API_URL. */
  url: string;
  owner: string;
  repo: string;
  token: string;
  pulls: FakePull[];
  requests: RecordedRequest[];
  /** Requests that did not match the OpenAPI description, with why. Empty in a good run. */
  violations: string[];
  /** Opens a pull request directly (as someone on the web interface would); returns its page address. */
  open(input: { title: string; head: string; base: string; body?: string }): { number: number; url: string };
  /**
   * Answers the next requests with these failures instead (after checking them as usual), one
   * each: a server error, or a rate limit as GitHub words it.
   */
  failNext(...failures: { status: number; headers?: Record<string, string>; message: string }[]): void;
  /** Merges pull request `number` (as the web interface would). */
  merge(number: number): void;
  /** Closes pull request `number` without merging. */
  close(number: number): void;
}

/** Options of {@link startFakeGitHub}. */
export interface FakeGitHubOptions {
  owner?: string;
  repo?: string;
  token?: string;
  /** The commit of a branch of the repository, or undefined when it has no such branch. */
  branchHead?: (branch: string) => string | undefined;
}

/** Starts the fake on an ephemeral port; it stops when the test finishes. */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const description = loadDescription();
  const owner = options.owner ?? 'octo-org';
  const repo = options.repo ?? 'loadouts';
  const token = options.token ?? 'ghp_fake_token_for_tests';
  const pulls: FakePull[] = [];
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const failures: { status: number; headers?: Record<string, string>; message: string }[] = [];
  let url = '';
  let nextNumber = 1;

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      violations.push(`fake failed: ${(error as Error).stack ?? String(error)}`);
      send(response, 400, { message: `fake GitHub failed: ${(error as Error).message}` });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = new URL(request.url ?? '/', 'http://fake.invalid');
    const method = (request.method ?? 'GET').toLowerCase();
    const text = await readBody(request);
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return refuse(response, `${method.toUpperCase()} ${address.pathname}: the body is not JSON`);
      }
    }
    const query = Object.fromEntries(address.searchParams);
    requests.push({ method: method.toUpperCase(), path: address.pathname, query, body });

    const authorization = request.headers.authorization ?? '';
    if (authorization !== `token ${token}` && authorization !== `bearer ${token}` && authorization !== `Bearer ${token}`) {
      return answer(response, method, undefined, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    }
    const matched = description.match(method, address.pathname);
    if (matched === undefined) return refuse(response, `${method.toUpperCase()} ${address.pathname} is not one of the bot's five endpoints`);
    const problems = matched.operation.checkRequest(matched.params, query, body, request.headers['content-type']);
    if (problems.length > 0) return refuse(response, `${method.toUpperCase()} ${matched.path}: ${problems.join('; ')}`);
    const failure = failures.shift();
    if (failure !== undefined) return send(response, failure.status, { message: failure.message, documentation_url: 'https://docs.github.com/rest' }, failure.headers);
    if (matched.params['owner']?.toLowerCase() !== owner.toLowerCase() || matched.params['repo']?.toLowerCase() !== repo.toLowerCase()) {
      return answer(response, method, matched.path, 404, notFound());
    }
    const now = new Date().toISOString().replace(/\.\d{3}Z$/u, 'Z');
    const api = `${url}/repos/${owner}/${repo}`;
    const web = `${url}/${owner}/${repo}`;
    const render = (pull: FakePull, shape: 'pull-request' | 'pull-request-simple'): unknown => renderPull(description, shape, pull, { owner, repo, api, web, headSha: options.branchHead?.(pull.head) ?? '0'.repeat(40) });

    if (matched.path === '/repos/{owner}/{repo}/pulls' && method === 'get') {
      const state = query['state'] ?? 'open';
      const head = query['head'];
      const list = pulls.filter((p) => (state === 'all' || p.state === state) && (head === undefined || `${owner}:${p.head}`.toLowerCase() === head.toLowerCase() || p.head === head) && (query['base'] === undefined || p.base === query['base']));
      return answer(response, method, matched.path, 200, list.map((p) => render(p, 'pull-request-simple')));
    }
    if (matched.path === '/repos/{owner}/{repo}/pulls' && method === 'post') {
      const input = body as { title?: string; head?: string; base?: string; body?: string };
      const head = input.head?.includes(':') === true ? input.head.slice(input.head.indexOf(':') + 1) : input.head;
      if (input.title === undefined || head === undefined || input.base === undefined) return answer(response, method, matched.path, 422, validationFailed('title, head and base are required'));
      if (options.branchHead !== undefined && options.branchHead(head) === undefined) return answer(response, method, matched.path, 422, validationFailed(undefined, { resource: 'PullRequest', field: 'head', code: 'invalid' }));
      if (pulls.some((p) => p.state === 'open' && p.head === head && p.base === input.base)) {
        return answer(response, method, matched.path, 422, validationFailed(undefined, { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:${head}.` }));
      }
      const pull: FakePull = { number: nextNumber++, title: input.title, body: input.body ?? null, head, base: input.base, state: 'open', merged: false, labels: [], createdAt: now, updatedAt: now, closedAt: null, mergedAt: null };
      pulls.push(pull);
      return answer(response, method, matched.path, 201, render(pull, 'pull-request'), { location: `${api}/pulls/${pull.number}` });
    }
    const number = Number(matched.params['pull_number'] ?? matched.params['issue_number']);
    const pull = pulls.find((p) => p.number === number);
    if (pull === undefined) return answer(response, method, matched.path, 404, notFound());
    if (matched.path === '/repos/{owner}/{repo}/pulls/{pull_number}' && method === 'get') return answer(response, method, matched.path, 200, render(pull, 'pull-request'));
    if (matched.path === '/repos/{owner}/{repo}/pulls/{pull_number}' && method === 'patch') {
      const input = (body ?? {}) as { title?: string; body?: string; state?: 'open' | 'closed'; base?: string };
      if (input.title !== undefined) pull.title = input.title;
      if (input.body !== undefined) pull.body = input.body;
      if (input.base !== undefined) pull.base = input.base;
      if (input.state !== undefined && !pull.merged) {
        pull.state = input.state;
        pull.closedAt = input.state === 'closed' ? now : null;
      }
      pull.updatedAt = now;
      return answer(response, method, matched.path, 200, render(pull, 'pull-request'));
    }
    // POST /repos/{owner}/{repo}/issues/{issue_number}/labels: `{labels: [...]}` or a bare array.
    const given = Array.isArray(body) ? body : ((body as { labels?: unknown[] } | undefined)?.labels ?? []);
    for (const label of given) {
      const name = typeof label === 'string' ? label : (label as { name: string }).name;
      if (!pull.labels.includes(name)) pull.labels.push(name);
    }
    pull.updatedAt = now;
    return answer(response, method, matched.path, 200, pull.labels.map((name) => renderLabel(description, name, api)));
  }

  function refuse(response: ServerResponse, why: string): void {
    violations.push(why);
    send(response, 422, { message: `fake GitHub: the request does not match GitHub's OpenAPI description: ${why}`, documentation_url: 'https://docs.github.com/rest' });
  }

  /** Sends `payload` after checking it against the operation's response schema for `status`. */
  function answer(response: ServerResponse, method: string, path: string | undefined, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    if (path !== undefined) {
      const problems = description.checkResponse(method, path, status, payload);
      if (problems.length > 0) {
        violations.push(`fake's own ${status} answer to ${method.toUpperCase()} ${path} does not match the description: ${problems.join('; ')}`);
        return send(response, 400, { message: `fake GitHub built a response that GitHub would not send: ${problems.join('; ')}` });
      }
    }
    send(response, status, payload, headers);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  url = `http://127.0.0.1:${port}`;
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const find = (number: number): FakePull => {
    const pull = pulls.find((p) => p.number === number);
    if (pull === undefined) throw new Error(`fake GitHub has no pull request #${number}`);
    return pull;
  };
  return {
    url,
    owner,
    repo,
    token,
    pulls,
    requests,
    violations,
    failNext(...given) {
      failures.push(...given);
    },
    open(input) {
      const at = new Date().toISOString().replace(/\.\d{3}Z$/u, 'Z');
      const pull: FakePull = { number: nextNumber++, title: input.title, body: input.body ?? null, head: input.head, base: input.base, state: 'open', merged: false, labels: [], createdAt: at, updatedAt: at, closedAt: null, mergedAt: null };
      pulls.push(pull);
      return { number: pull.number, url: `${url}/${owner}/${repo}/pull/${pull.number}` };
    },
    merge(number) {
      const pull = find(number);
      const at = new Date().toISOString().replace(/\.\d{3}Z$/u, 'Z');
      Object.assign(pull, { state: 'closed', merged: true, mergedAt: at, closedAt: at, updatedAt: at });
    },
    close(number) {
      const pull = find(number);
      const at = new Date().toISOString().replace(/\.\d{3}Z$/u, 'Z');
      Object.assign(pull, { state: 'closed', closedAt: at, updatedAt: at });
    },
  };
}

function send(response: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-media-type': 'github.v3; format=json', ...headers });
  response.end(JSON.stringify(payload));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const notFound = (): unknown => ({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
const validationFailed = (message?: string, error?: Record<string, string>): unknown => ({
  message: message ?? 'Validation Failed',
  documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
  ...(error === undefined ? {} : { errors: [error] }),
});

// ---- The OpenAPI description -------------------------------------------------------------

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Record<string, unknown>;
}

interface OpenApiOperation {
  parameters?: (OpenApiParameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> } | { $ref: string }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { parameters: Record<string, OpenApiParameter>; responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>; examples: Record<string, { value: unknown }>; schemas: Record<string, unknown> };
}

/** One operation, ready to check requests. */
interface CheckedOperation {
  checkRequest(params: Record<string, string>, query: Record<string, string>, body: unknown, contentType: string | undefined): string[];
}

/** The bot's five operations from the description, with their validators. */
interface Description {
  match(method: string, path: string): { path: string; params: Record<string, string>; operation: CheckedOperation } | undefined;
  checkResponse(method: string, path: string, status: number, payload: unknown): string[];
  example(name: string): unknown;
}

let loaded: Description | undefined;

/** Reads api.github.com's description (13 MB, once per test file) and compiles what the bot uses. */
function loadDescription(): Description {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
  const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  (addFormatsModule as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  ajv.addFormat('repo.nwo', /^[^/\s]+\/[^/\s]+$/u);
  // Schemas refer to each other as #/components/schemas/…: one schema document holds them all.
  ajv.addSchema({ $id: 'github.json', components: document.components });
  const compile = (schema: Record<string, unknown>): ValidateFunction => ajv.compile(rebase(schema) as Record<string, unknown>);
  const errorsOf = (validate: ValidateFunction, at: string): string[] => (validate.errors ?? []).slice(0, 5).map((e) => `${at}${e.instancePath} ${e.message ?? 'is invalid'}${e.params === undefined ? '' : ` ${JSON.stringify(e.params)}`}`);
  const resolve = <T>(value: T | { $ref: string }): T => {
    if (typeof value === 'object' && value !== null && '$ref' in value) {
      const [, , kind, name] = value.$ref.split('/');
      return (document.components as unknown as Record<string, Record<string, T>>)[kind ?? '']?.[name ?? ''] as T;
    }
    return value;
  };

  const operations = new Map<string, { path: string; pattern: RegExp; names: string[]; operation: CheckedOperation; raw: OpenApiOperation }>();
  for (const [method, path] of BOT_OPERATIONS) {
    const raw = document.paths[path]?.[method];
    if (raw === undefined) throw new Error(`the OpenAPI description has no ${method.toUpperCase()} ${path}`);
    const parameters = (raw.parameters ?? []).map((p) => resolve(p));
    const names = [...path.matchAll(/\{([^}]+)\}/gu)].map((m) => m[1] ?? '');
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/gu, '([^/]+)')}$`, 'u');
    const validators = new Map(parameters.map((p) => [`${p.in}:${p.name}`, compile(p.schema)]));
    const jsonBody = raw.requestBody?.content['application/json']?.schema;
    const bodyValidator = jsonBody === undefined ? undefined : compile(jsonBody);
    const operation: CheckedOperation = {
      checkRequest(params, query, body, contentType) {
        const problems: string[] = [];
        for (const p of parameters) {
          const value = p.in === 'path' ? params[p.name] : p.in === 'query' ? query[p.name] : undefined;
          if (value === undefined) {
            if (p.required === true) problems.push(`the ${p.in} parameter ${p.name} is missing`);
            continue;
          }
          const validate = validators.get(`${p.in}:${p.name}`);
          const typed = p.schema['type'] === 'integer' || p.schema['type'] === 'number' ? (/^-?\d+(?:\.\d+)?$/u.test(value) ? Number(value) : value) : p.schema['type'] === 'boolean' ? (value === 'true' ? true : value === 'false' ? false : value) : value;
          if (validate !== undefined && !validate(typed)) problems.push(...errorsOf(validate, `${p.in} parameter ${p.name}`));
        }
        for (const name of Object.keys(query)) {
          if (!parameters.some((p) => p.in === 'query' && p.name === name)) problems.push(`the query parameter ${name} is not in the description`);
        }
        if (body === undefined) {
          if (raw.requestBody?.required === true) problems.push('the request body is missing');
        } else if (bodyValidator === undefined) {
          problems.push('the operation takes no request body');
        } else {
          if (!(contentType ?? '').toLowerCase().startsWith('application/json')) problems.push(`the body is sent as ${contentType ?? 'nothing'} (expected application/json)`);
          if (!bodyValidator(body)) problems.push(...errorsOf(bodyValidator, 'body'));
        }
        return problems;
      },
    };
    operations.set(`${method} ${path}`, { path, pattern, names, operation, raw });
  }
  const responseValidators = new Map<string, ValidateFunction | null>();
  loaded = {
    match(method, pathname) {
      for (const [key, entry] of operations) {
        if (!key.startsWith(`${method} `)) continue;
        const m = entry.pattern.exec(pathname);
        if (m === null) continue;
        const params = Object.fromEntries(entry.names.map((name, i) => [name, decodeURIComponent(m[i + 1] ?? '')]));
        return { path: entry.path, params, operation: entry.operation };
      }
      return undefined;
    },
    checkResponse(method, path, status, payload) {
      const key = `${method} ${path} ${status}`;
      if (!responseValidators.has(key)) {
        const declared = operations.get(`${method} ${path}`)?.raw.responses[String(status)];
        const schema = declared === undefined ? undefined : resolve(declared).content?.['application/json']?.schema;
        responseValidators.set(key, schema === undefined ? null : compile(schema));
      }
      const validate = responseValidators.get(key);
      if (validate === null || validate === undefined) {
        // GitHub answers 401 to any operation with the basic-error shape, undeclared per operation.
        return status === 401 ? [] : [`status ${status} is not declared for ${method.toUpperCase()} ${path}`];
      }
      return validate(payload) ? [] : errorsOf(validate, 'response');
    },
    example(name) {
      const example = document.components.examples[name];
      if (example === undefined) throw new Error(`the OpenAPI description has no example ${name}`);
      return structuredClone(example.value);
    },
  };
  return loaded;
}

/** Points `#/components/…` references at the schema document added as `github.json`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `github.json${v}` : rebase(v)]));
}

// ---- Answers built from GitHub's examples ------------------------------------------------

interface RenderContext {
  owner: string;
  repo: string;
  api: string;
  web: string;
  headSha: string;
}

/** A pull request in the shape of `pull-request` or `pull-request-simple`, from GitHub's example. */
function renderPull(description: Description, shape: 'pull-request' | 'pull-request-simple', pull: FakePull, c: RenderContext): unknown {
  const example = description.example(shape === 'pull-request' ? 'pull-request' : 'pull-request-simple-items');
  const base = (Array.isArray(example) ? example[0] : example) as Record<string, unknown>;
  const head = base['head'] as Record<string, unknown>;
  const target = base['base'] as Record<string, unknown>;
  Object.assign(base, {
    url: `${c.api}/pulls/${pull.number}`,
    id: 1000 + pull.number,
    html_url: `${c.web}/pull/${pull.number}`,
    diff_url: `${c.web}/pull/${pull.number}.diff`,
    patch_url: `${c.web}/pull/${pull.number}.patch`,
    issue_url: `${c.api}/issues/${pull.number}`,
    commits_url: `${c.api}/pulls/${pull.number}/commits`,
    review_comments_url: `${c.api}/pulls/${pull.number}/comments`,
    comments_url: `${c.api}/issues/${pull.number}/comments`,
    statuses_url: `${c.api}/statuses/${c.headSha}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    active_lock_reason: null,
    title: pull.title,
    body: pull.body,
    labels: pull.labels.map((name) => renderLabel(description, name, c.api)),
    milestone: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.merged ? c.headSha : null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: { ...head, label: `${c.owner}:${pull.head}`, ref: pull.head, sha: c.headSha },
    base: { ...target, label: `${c.owner}:${pull.base}`, ref: pull.base },
    auto_merge: null,
    draft: false,
  });
  if (shape === 'pull-request') Object.assign(base, { merged: pull.merged, mergeable: null, rebaseable: null, mergeable_state: 'unknown', merged_by: null, comments: 0, review_comments: 0, maintainer_can_modify: true, commits: 1 });
  return base;
}

function renderLabel(description: Description, name: string, api: string): unknown {
  const example = (description.example('label-items') as Record<string, unknown>[])[0] ?? {};
  return { ...example, id: 4000 + name.length, url: `${api}/labels/${encodeURIComponent(name)}`, name, description: `The ${name} label`, color: 'ededed', default: false };
}
