/**
 * `loadout sbom [--format cyclonedx|spdx] [--dir .] [--global] [--from URL|DIR] [--offline]
 * [--allow-empty]`: the software bill of materials of the loadouts a lock records (issue 55,
 * point 3), as CycloneDX 1.6 JSON (the default) or SPDX 2.3 JSON on stdout; what it leaves
 * unknown (a licence, a file's SHA-1) on stderr as notices. Exit 1 when nothing is installed
 * (unless `--allow-empty`), as `status`: an SBOM of the wrong folder would be empty, not wrong.
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { readInventory } from '../../install/sbom/inventory.js';
import { sbomMetaNow, type SbomMeta } from '../../install/sbom/sbom-meta.js';
import { EXIT } from '../exit.js';
import { scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** The formats `--format` takes. */
export const SBOM_FORMATS = ['cyclonedx', 'spdx'] as const;

/** One of {@link SBOM_FORMATS}. */
export type SbomFormat = (typeof SBOM_FORMATS)[number];

/** Options of {@link sbomCommand}. */
export interface SbomCommandOptions {
  /** `--format`, default `cyclonedx`. */
  format?: string;
  dir: string;
  global: boolean;
  /** Read every catalogue here instead of each install's source. */
  from?: string;
  /** Read no catalogue: licences NOASSERTION. */
  offline: boolean;
  /** Exit 0 when nothing is installed. */
  allowEmpty: boolean;
  /** The version of the CLI, named in the SBOM as its tool. */
  toolVersion: string;
  /** Fixes the SBOM's time and serial (tests); default now and a fresh UUID. */
  meta?: SbomMeta;
}

/** `--format` checked. @throws LoadoutError `usage` for another value */
export function sbomFormatOf(format: string | undefined): SbomFormat {
  if (format === undefined) return 'cyclonedx';
  if (!(SBOM_FORMATS as readonly string[]).includes(format)) throw new LoadoutError('usage', `--format is ${JSON.stringify(format)} (expected one of ${SBOM_FORMATS.join(', ')})`);
  return format as SbomFormat;
}

/** Prints the SBOM; returns 1 when nothing is installed and that is not allowed. */
export async function sbomCommand(options: SbomCommandOptions, out: Write, err: Write): Promise<number> {
  const format = sbomFormatOf(options.format);
  const inventory = await readInventory({ scope: scopeOf(options), from: options.from, offline: options.offline });
  if (inventory.loadouts.length === 0 && !options.allowEmpty) {
    err(`loadout: nothing installed: the lock of ${printableLine(inventory.root)} lists no installs\nloadout: hint: Run sbom in the project's folder (or --dir <project>), or pass --allow-empty for an SBOM with no loadouts.\n`);
    return EXIT.failed;
  }
  for (const notice of inventory.notices) err(`loadout: notice: ${printableLine(notice)}\n`);
  const meta = options.meta ?? sbomMetaNow(options.toolVersion);
  if (format === 'spdx') {
    const { spdxDocumentOf } = await import('../../install/sbom/spdx.js');
    out(`${printableJson(spdxDocumentOf(inventory, meta))}\n`);
  } else {
    // The CycloneDX library is loaded only for this format.
    const { cycloneDxDocumentOf } = await import('../../install/sbom/cyclonedx.js');
    out(`${printableJson(cycloneDxDocumentOf(inventory, meta))}\n`);
  }
  return EXIT.ok;
}
