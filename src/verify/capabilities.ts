/**
 * The capability list of a checked loadout (issue 54, point 1): `layout/capabilities.ts` over the
 * manifest's files, with the hosts the `safety` check's network scan finds in them
 * (`safety/network.ts` `listNetworkUses`), read through the run's shared text views so that no
 * file is decoded or indexed twice. `runChecks` makes it for every run whose manifest is valid,
 * so `verify`, the build (records and `versions.json`, every version) and submissions have the
 * same list.
 */
import type { Manifest } from '../catalogue/manifest.js';
import { deriveCapabilities, type NetworkUse } from '../layout/capabilities.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import { listNetworkUses } from './safety/network.js';
import { prepareScanText } from './safety/scan-text.js';
import type { TextView } from './text/view.js';

/** The capability list of `manifest`'s files, read through `view` (undefined for a file that is missing or not UTF-8). Pure apart from `view`. */
export function checkedCapabilities(manifest: Manifest, view: (path: string) => TextView | undefined): Capabilities {
  const network: NetworkUse[] = [];
  for (const entry of manifest.files) {
    // MCP servers' hosts are listed with the servers; a manifest's files are scanned as the safety check scans them.
    if (entry.role === 'mcp') continue;
    const shared = view(entry.path);
    if (shared === undefined) continue;
    for (const use of listNetworkUses(prepareScanText(entry.path, shared.text, shared))) network.push({ file: entry.path, host: use.host, what: use.what });
  }
  return deriveCapabilities({ files: manifest.files, text: (path) => view(path)?.text, network });
}
