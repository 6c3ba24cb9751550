/**
 * Bringing a loadout's adapter files in line with the generator: the files' text, and their
 * entries in `loadout.yaml` (added, with comments and layout of the rest of the manifest kept).
 */
import { parseDocument, isSeq } from 'yaml';
import type { Manifest } from '../catalogue/manifest.js';
import { decodeUtf8, type LoadoutSource } from '../catalogue/source.js';
import { ADAPTER_AGENTS, adapterFileName, generateAdapter } from './generate.js';

/** What syncing would change. */
export interface AdapterSync {
  /** Adapter files whose text differs from the generator (or that are missing), with the text to write. */
  writes: { path: string; text: string; existed: boolean }[];
  /** The new manifest text when entries had to be added, else undefined. */
  manifestText: string | undefined;
}

/**
 * Computes the adapter files and manifest entries for `manifest`. Agents marked
 * `unsupported` in `compatibility` get no adapter. Pure: the caller writes the result.
 */
export function planAdapterSync(source: LoadoutSource, manifest: Manifest): AdapterSync {
  const sync: AdapterSync = { writes: [], manifestText: undefined };
  const doc = parseDocument(source.manifestText ?? '');
  const files = doc.get('files');
  for (const agent of ADAPTER_AGENTS) {
    if (manifest.compatibility?.[agent] === 'unsupported') continue;
    const path = adapterFileName(agent);
    const text = generateAdapter(agent, manifest.title);
    const current = source.files.get(path);
    if (current === undefined || decodeUtf8(current) !== text) sync.writes.push({ path, text, existed: current !== undefined });
    if (!manifest.files.some((f) => f.role === 'adapter' && f.agent === agent) && isSeq(files)) {
      files.add(doc.createNode({ path, role: 'adapter', agent, description: `${agent === 'claude-code' ? 'Claude Code' : 'Gemini CLI'} adapter: imports AGENTS.md` }));
      sync.manifestText = doc.toString();
    }
  }
  return sync;
}
