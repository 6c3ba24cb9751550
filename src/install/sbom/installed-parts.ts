/**
 * What one install holds in the project, read for the SBOM (issue 55, point 3): each locked
 * file with the hashes of the bytes it stands for, and the packages its MCP servers start.
 * Read through the scope's one handle (`project/project-root.ts`), the way `loadout status`
 * reads (every target checked before any is read); reads only.
 *
 * The hashes. The lock records the sha256 of what was written (`project/lock.ts`): a whole file's
 * bytes, a block's body (`compose/markdown-blocks.ts`), or, for MCP servers merged into a shared
 * configuration, the loadout's MCP file, which the project does not hold. When the project still
 * holds those bytes (their sha256 is the lock's), their SHA-1 is computed too: SPDX 2.3 requires a
 * SHA-1 for every file element (clause 8.4, cardinality 1..1) and for the package verification
 * code (clause 7.9). A part whose bytes are changed, missing or (merged servers) not in the
 * project keeps the lock's sha256 alone and says why.
 *
 * The packages. What an MCP server of the install starts is read from the agent's configuration
 * as it is now (the servers the lock says the install added, in the agent's own format,
 * `compose/mcp-servers.ts`), with the launcher rules of `capabilities/launchers.ts`: what the
 * project runs, read offline, the same reading `status` compares with the lock's capability keys.
 */
import { createHash } from 'node:crypto';
import { LoadoutError } from '../../catalogue/errors.js';
import { describeTargetProblem } from '../../layout/target-rules.js';
import { describeServer } from '../../layout/capabilities.js';
import type { McpPackage } from '../../tree-format/capabilities.js';
import { findBlock, parseBlocks } from '../compose/markdown-blocks.js';
import { readParts } from '../compose/mcp-servers.js';
import type { FileKind, LockEntry } from '../project/lock.js';
import type { ProjectRoot } from '../project/project-root.js';

/** Why an installed part has no SHA-1: its bytes changed or went since the install, or the lock's hash is of a loadout file the project does not hold (merged MCP servers). */
export type UnhashedReason = 'changed' | 'missing' | 'not-in-project';

/** One file an install holds, with its hashes (hex, lowercase). */
export interface InstalledPart {
  /** Where it is, relative to the project root. */
  target: string;
  /** The loadout file it came from. */
  path: string;
  kind: FileKind;
  /** The lock's sha256: of the whole file, of the block's body, or (`servers`) of the loadout's MCP file. */
  sha256: string;
  /** SHA-1 of the same bytes, when the project holds them as installed. */
  sha1?: string;
  /** Set when there is no `sha1`. */
  unhashed?: UnhashedReason;
}

/** One MCP server of an install that starts a program: its name, the loadout file declaring it, and what it starts. */
export interface InstalledServer {
  server: string;
  file: string;
  package: McpPackage;
}

/** A remote MCP server of an install: reached at an address, it starts nothing. */
export interface InstalledRemoteServer {
  server: string;
  file: string;
  url: string;
}

/** What {@link readInstalledParts} found for one install. */
export interface InstalledContent {
  parts: InstalledPart[];
  servers: InstalledServer[];
  remote: InstalledRemoteServer[];
  /** Servers the lock says the install added that the configuration no longer holds: `<target>: <server>`. */
  absent: string[];
}

const hex = (algorithm: 'sha1' | 'sha256', bytes: Uint8Array | string): string => createHash(algorithm).update(bytes).digest('hex');
const decoder = new TextDecoder();
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The bytes the lock's sha256 of `file` stands for, as the project holds them now: the whole file, or the block's body; undefined for merged servers. */
function lockedBytes(file: LockEntry['files'][number], current: Uint8Array, id: string): Uint8Array | string | undefined {
  if (file.kind === 'file') return current;
  if (file.kind === 'block') return findBlock(parseBlocks(decoder.decode(current), file.role === 'adapter'), id)?.body;
  return undefined;
}

/**
 * The parts and MCP packages of the install `entry`, read through `project`.
 * @throws LoadoutError `invalid_content` when a target breaks rules 1 to 3 of `target-rules.ts`
 *   (nothing is read then), `io`
 */
export async function readInstalledParts(project: ProjectRoot, entry: LockEntry): Promise<InstalledContent> {
  const problems = await Promise.all(entry.files.map(async (file) => describeTargetProblem(file.target) ?? (await project.describeLanding(file.target))));
  entry.files.forEach((file, i) => {
    const problem = problems[i];
    if (problem !== undefined) throw new LoadoutError('invalid_content', `the lock's ${entry.id} install for ${entry.agent}: its target ${JSON.stringify(file.target)} ${problem}; nothing was read`, { hint: 'Fix or delete the lock entry.' });
  });
  const content: InstalledContent = { parts: [], servers: [], remote: [], absent: [] };
  for (const file of entry.files) {
    const current = await project.read(file.target);
    const part: InstalledPart = { target: file.target, path: file.path, kind: file.kind, sha256: file.sha256 };
    const bytes = current === undefined ? undefined : lockedBytes(file, current, entry.id);
    if (file.kind === 'servers') part.unhashed = 'not-in-project';
    else if (bytes === undefined) part.unhashed = 'missing';
    else if (hex('sha256', bytes) !== file.sha256) part.unhashed = 'changed';
    else part.sha1 = hex('sha1', bytes);
    content.parts.push(part);
    if (file.kind !== 'servers') continue;
    const servers = current === undefined ? undefined : readParts(decoder.decode(current), file.target);
    for (const name of Object.keys(file.servers)) {
      const server = servers?.[name];
      if (!isObject(server)) {
        content.absent.push(`${file.target}: ${name}`);
        continue;
      }
      const described = describeServer(name, file.path, server);
      if (described.package !== undefined) content.servers.push({ server: name, file: file.path, package: described.package });
      else if (described.url !== undefined) content.remote.push({ server: name, file: file.path, url: described.url });
    }
  }
  return content;
}
