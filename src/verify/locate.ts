/**
 * Locating manifest findings: a JSON pointer into `loadout.yaml` with the line it is on, so
 * that every finding about the record names a line (DESIGN.md section 4: "`details` lines that
 * name file and line").
 */
import { MANIFEST_FILE } from '../catalogue/manifest.js';
import type { CheckContext, Finding } from './check.js';

/** `{file: 'loadout.yaml', line, pointer}` for an RFC 6901 pointer into the manifest. */
export function atPointer(context: Pick<CheckContext, 'manifestYaml'>, pointer: string): Pick<Finding, 'file' | 'line' | 'pointer'> {
  const line = context.manifestYaml?.lineOf(pointer);
  return line === undefined ? { file: MANIFEST_FILE, pointer } : { file: MANIFEST_FILE, line, pointer };
}
