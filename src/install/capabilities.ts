/**
 * What an install or update lets the agent run and reach (issue 54, points 2 and 3), as the
 * installer sees it:
 *
 * - the capability list of a fetched version, derived here from its files as the build derives
 *   it (`layout/capabilities.ts`), not taken from the catalogue's word: only the hosts its
 *   instructions reach come from the published list (the network scan is the checks', which
 *   the consumer CLI does not carry), and a catalogue built before lists were published has none;
 * - the keys of what an install holds in the project, read from the installed bytes: recorded in
 *   the lock at install time and read again by `status`, so that a hand edit that adds a server
 *   entry, a hook or a grant to installed files is reported (one function for both, so the two
 *   agree whatever each agent's format).
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { findAutoApprovals, splitToolGrants } from '../capabilities/consent.js';
import { finishCapabilities, listsFor, type CapabilityLists } from '../capabilities/digest.js';
import { isScript } from '../capabilities/scripts.js';
import { readFrontMatterForInstall } from '../catalogue/front-matter-data.js';
import { deriveCapabilities, describeServer, readHooks } from '../layout/capabilities.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { FetchedVersion } from './catalogue/fetch-version.js';
import { readParts } from './compose/mcp-servers.js';
import type { LockEntry } from './project/lock.js';

/**
 * The capability list of `fetched`: derived from its files, with the hosts of the list its
 * catalogue publishes for it (none when the catalogue publishes none). Pure.
 */
export function versionCapabilities(fetched: FetchedVersion): Capabilities {
  const derived = deriveCapabilities({ files: fetched.files, text: fetched.text });
  const network = fetched.entry.capabilities?.network ?? [];
  return network.length === 0 ? derived : finishCapabilities({ ...derived, network: network.map((n) => ({ ...n, files: [...n.files], agents: [...n.agents] })) });
}

/** The part of `capabilities` the install of `agent` brings (`capabilities/digest.ts` `listsFor`). */
export function agentCapabilities(capabilities: CapabilityLists, agent: Agent): CapabilityLists {
  return listsFor(capabilities, [agent]);
}

/**
 * The keys of what the install `entry` holds, read through `read` (a target's bytes as they are
 * or will be): per MCP server it added, its transport, package or host, the variables it reads
 * and its auto-approval keys; per whole file, the hooks and tool grants of its front matter and
 * whether it is a script. Sorted, without duplicates. Never throws: what does not parse brings
 * no key. Pure apart from `read`.
 */
export function installedCapabilityKeys(entry: LockEntry, read: (target: string) => Uint8Array | undefined): string[] {
  const keys = new Set<string>();
  const decoder = new TextDecoder();
  for (const file of entry.files) {
    const bytes = read(file.target);
    if (bytes === undefined) continue;
    const text = decoder.decode(bytes);
    if (file.kind === 'servers') {
      const parts = readParts(text, file.target) ?? {};
      for (const name of Object.keys(file.servers)) {
        const server = parts[name];
        if (server === null || typeof server !== 'object' || Array.isArray(server)) continue;
        const described = describeServer(name, file.path, server as Record<string, unknown>);
        const what = described.transport === 'stdio' ? `${described.package?.registry ?? 'local'}:${described.package?.name ?? described.command ?? ''}@${described.package?.version ?? '*'}` : `host:${described.host ?? ''}`;
        keys.add(`mcp ${name} ${described.transport} ${what} env=${described.env.map((e) => e.name).join(',')}`);
        for (const approval of findAutoApprovals(server as Record<string, unknown>)) keys.add(`approval ${name} ${approval.key}=${approval.value}`);
      }
      continue;
    }
    if (file.kind !== 'file') continue;
    if (isScript(file.target, text)) keys.add(`script ${file.path}`);
    if (file.role !== 'skill' && file.role !== 'subagent') continue;
    const { data } = readFrontMatterForInstall(text);
    for (const hook of readHooks(data['hooks'], file.path, [])) keys.add(`hook ${file.path} ${hook.event} ${hook.matcher ?? '*'} ${hook.command}`);
    for (const key of ['allowed-tools', 'tools']) for (const grant of splitToolGrants(data[key])) keys.add(`grant ${file.path} ${key} ${grant}`);
    if (typeof data['permissionMode'] === 'string' && data['permissionMode'] !== '') keys.add(`mode ${file.path} ${data['permissionMode']}`);
  }
  return [...keys].sort();
}
