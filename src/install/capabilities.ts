/**
 * What an install or update lets the agent run and reach (issue 54, points 2 and 3), as the
 * installer sees it:
 *
 * - the capability list of a fetched version, derived here from its files as the build derives
 *   it (`layout/capabilities.ts`), not taken from the catalogue's word: only the hosts its
 *   instructions reach come from the published list (the network scan is the checks', which
 *   the consumer CLI does not carry), and a catalogue built before lists were published has none;
 * - the part of it an agent's install brings.
 *
 * What an install holds once written is read from the installed bytes by
 * `installed-capabilities.ts`.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { finishCapabilities, listsFor, type CapabilityLists } from '../capabilities/digest.js';
import { deriveCapabilities } from '../layout/capabilities.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { FetchedVersion } from './catalogue/fetch-version.js';

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
