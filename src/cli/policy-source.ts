/**
 * Which policy a command runs under (issue 55, point 1; docs/policy.md), resolved once, flags
 * over the environment over the project (unjs/changelogen's order): `--policy <path|url>`, else
 * `LOADOUT_POLICY`, else `loadout-policy.yaml` at the project's root when it is there (a
 * project-scope command only). A path is read from disk; an `http(s)://` address is fetched with
 * the limits of a catalogue's documents (`install/catalogue/http-get.ts`: at most
 * `DOCUMENT_MAX_BYTES`, 30 s, at most five redirects, each on the same origin). With
 * `--policy-key` (or `LOADOUT_POLICY_KEY`) the policy must be signed by that key
 * (`policy/signed-policy.ts`). Then it is read (`policy/parse.ts`): every problem is named by
 * line and column, and a policy with one is not used.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { DOCUMENT_MAX_BYTES } from '../install/catalogue/catalogue-reader.js';
import { httpGet } from '../install/catalogue/http-get.js';
import { ConsumerError } from '../install/errors.js';
import { formatPolicyProblems, parsePolicy } from '../policy/parse.js';
import { POLICY_FILE, POLICY_VARIABLE, type LoadedPolicy, type PolicyInForce } from '../policy/policy.js';
import { openPolicyDocument, POLICY_KEY_VARIABLE, readPolicyKey } from '../policy/signed-policy.js';
import type { TrustedKey } from '../tree-format/signing/keys.js';

/** The flags every command that holds a policy takes. */
export interface PolicyFlags {
  /** `--policy <path|url>`. */
  policy?: string;
  /** `--policy-key <public key>`, repeatable. */
  policyKey?: string[];
}

/** Where the command runs: the project folder (undefined for `--global`, which has no project file) and the environment. */
export interface PolicyPlace {
  project: string | undefined;
  env: NodeJS.ProcessEnv;
  /** The time release ages are judged at; default now. */
  now?: Date;
}

const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 30_000;

const set = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** The keys that must have signed the policy: `--policy-key`, else `LOADOUT_POLICY_KEY` (comma-separated). @throws ConsumerError `InvalidPolicy` for one that is no key */
function keysOf(flags: PolicyFlags, env: NodeJS.ProcessEnv): TrustedKey[] {
  const given = flags.policyKey !== undefined && flags.policyKey.length > 0 ? flags.policyKey.map((k) => ({ k, from: '--policy-key' })) : (set(env[POLICY_KEY_VARIABLE])?.split(',').map((k) => ({ k: k.trim(), from: POLICY_KEY_VARIABLE })) ?? []);
  return given.map(({ k, from }) => {
    const key = readPolicyKey(k);
    if ('problem' in key) throw new ConsumerError('InvalidPolicy', `${from}: ${key.problem}`);
    return key;
  });
}

/** The bytes of the file at `path`, at most `DOCUMENT_MAX_BYTES`. @throws ConsumerError `InvalidPolicy` */
async function readPolicyFile(path: string, from: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ConsumerError('InvalidPolicy', `${from} ${path}: ${code === 'ENOENT' ? 'no such file' : (cause as Error).message} (expected a policy file, YAML)`, { cause });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ConsumerError('InvalidPolicy', `${from} ${path}: not a file (expected a policy file, YAML)`);
    const buffer = Buffer.alloc(Math.min(stat.size, DOCUMENT_MAX_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > DOCUMENT_MAX_BYTES) throw new ConsumerError('InvalidPolicy', `${from} ${path} is larger than ${DOCUMENT_MAX_BYTES} bytes (expected a policy of a few lines)`);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The body of `address`, following at most five redirects on its origin. @throws ConsumerError `InvalidPolicy` (another status, a redirect elsewhere), the errors of `httpGet` */
async function fetchPolicy(address: string, from: string): Promise<Uint8Array> {
  let url = new URL(address);
  for (let redirects = 0; ; redirects++) {
    const answer = await httpGet(url, { cap: DOCUMENT_MAX_BYTES, timeoutMs: TIMEOUT_MS });
    if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
      const next = new URL(answer.location, url);
      if (next.origin !== url.origin) throw new ConsumerError('InvalidPolicy', `${from} ${address}: ${url.href} redirects to ${next.href}, another origin (expected the policy on ${url.origin})`);
      if (redirects >= MAX_REDIRECTS) throw new ConsumerError('InvalidPolicy', `${from} ${address} redirects more than ${MAX_REDIRECTS} times (expected a policy file)`);
      url = next;
      continue;
    }
    if (answer.status !== 200) throw new ConsumerError('InvalidPolicy', `${from} ${address}: ${url.href} answered HTTP ${answer.status} (expected 200 and the policy)`);
    return answer.body;
  }
}

/**
 * Reads the policy at `location` (a path or an http(s) URL), named by `from` in messages, and
 * checks its signature against `keys` (none: it must not be signed).
 * @throws ConsumerError `InvalidPolicy` (unreadable, not signed as asked, problems with their
 *   lines and columns), and `CatalogueUnreachable` or `ResponseTooLarge` for an address
 */
export async function readPolicyAt(location: string, from: string, keys: readonly TrustedKey[]): Promise<LoadedPolicy> {
  const remote = /^https?:\/\//iu.test(location);
  if (!remote && /^[a-z][a-z\d+.-]*:\/\//iu.test(location)) throw new ConsumerError('InvalidPolicy', `${from} is ${JSON.stringify(location)} (expected a file or an http:// or https:// address)`);
  const bytes = remote ? await fetchPolicy(location, from) : await readPolicyFile(location, from);
  const opened = openPolicyDocument(bytes, keys);
  if (!opened.ok) throw new ConsumerError('InvalidPolicy', `${from} ${location} ${opened.problem}`);
  const parsed = parsePolicy(opened.text);
  if (!parsed.ok) {
    const more = parsed.problems.length > 1 ? ` (${parsed.problems.length} problems)` : '';
    throw new ConsumerError('InvalidPolicy', `${from} ${location} is not a policy${more}:\n${formatPolicyProblems(location, parsed.problems)}`);
  }
  return { policy: parsed.policy, where: location, signedBy: opened.signedBy };
}

/**
 * The policy `--policy` names for a maintainer's command (`verify`, `build`, `ci verify`), checked
 * against `--policy-key` (else `LOADOUT_POLICY_KEY`); undefined without `--policy`. The
 * environment's `LOADOUT_POLICY` is a project's, not a catalogue's: it is not read here.
 * @throws the errors of {@link readPolicyAt}
 */
export async function namedPolicy(flags: PolicyFlags, env: NodeJS.ProcessEnv): Promise<LoadedPolicy | undefined> {
  const location = set(flags.policy);
  return location === undefined ? undefined : readPolicyAt(location, '--policy', keysOf(flags, env));
}

/**
 * The policy a command holds to (see the module comment), or undefined when none is named and the
 * project has no `loadout-policy.yaml`.
 * @throws ConsumerError `InvalidPolicy` and the errors of {@link readPolicyAt}; LoadoutError
 *   `usage` for `--policy-key` without a policy
 */
export async function resolvePolicy(flags: PolicyFlags, place: PolicyPlace): Promise<PolicyInForce | undefined> {
  const keys = keysOf(flags, place.env);
  const named = set(flags.policy) !== undefined ? { location: set(flags.policy) as string, from: '--policy' } : set(place.env[POLICY_VARIABLE]) !== undefined ? { location: set(place.env[POLICY_VARIABLE]) as string, from: POLICY_VARIABLE } : undefined;
  let found = named;
  if (found === undefined && place.project !== undefined) {
    const file = join(place.project, POLICY_FILE);
    const there = await open(file, 'r').then(
      async (h) => (await h.close(), true),
      () => false,
    );
    if (there) found = { location: file, from: 'the project\'s policy' };
  }
  if (found === undefined) {
    if (flags.policyKey !== undefined && flags.policyKey.length > 0) throw new LoadoutError('usage', `--policy-key names a key, but there is no policy to check (expected --policy, ${POLICY_VARIABLE} or ${POLICY_FILE} in the project)`);
    return undefined;
  }
  return { ...(await readPolicyAt(found.location, found.from, keys)), now: place.now ?? new Date() };
}
