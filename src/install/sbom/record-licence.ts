/**
 * The licence of an installed loadout, for the SBOM (issue 55, point 3). The lock does not keep
 * it: it is the `license` of the loadout's record in its catalogue (`api/loadouts/<id>.json`,
 * spec "Address shapes"), read through the consumer's one tree reader
 * (`catalogue/catalogue-reader.ts`, the reader `outdated` uses).
 *
 * Three things to know about that value, each said in docs/installing.md ("Software bill of
 * materials"):
 * - the record is the catalogue's latest version's, so it is that version's licence (the licence
 *   check keeps it an SPDX id of the catalogue's list, `catalogue/vocabulary.ts` `LICENCES`);
 * - the record is not among the documents a signed catalogue's snapshot lists (the versions
 *   documents and the index are), so the licence is the catalogue's word, not its key's;
 * - a licence that cannot be read (no network, a catalogue moved, a record that is not one, a
 *   licence outside that list) is unknown, never guessed: the SBOM says NOASSERTION and the
 *   command says why on stderr.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { LICENCES, type Licence } from '../../catalogue/vocabulary.js';
import { showValue as show } from '../../catalogue/show-value.js';
import { recordUrl } from '../../tree-format/index.js';
import { catalogueBaseUrl, DOCUMENT_MAX_BYTES, type CatalogueReader } from '../catalogue/catalogue-reader.js';

/** The licence found, or null with the reason it is unknown. */
export type LicenceLookup = { licence: Licence } | { licence: null; why: string };

/**
 * The address of loadout `id`'s record in the catalogue `source` (a lock's source: a base URL
 * or an absolute folder): its URL, or the `file:` URL of the record in a built tree.
 * @throws ConsumerError `BadSource` (see `catalogueBaseUrl`)
 */
export function recordAddress(source: string, id: string): string {
  const base = catalogueBaseUrl(source);
  return base === undefined ? pathToFileURL(join(source, 'api', 'loadouts', `${id}.json`)).href : recordUrl(base, id);
}

/**
 * Reads the `license` of loadout `id`'s record from `catalogue`. A catalogue that cannot be read
 * or a record that is not acceptable gives a reason, not an error.
 * @throws only what is not a `LoadoutError` (a bug)
 */
export async function readRecordLicence(catalogue: CatalogueReader, id: string): Promise<LicenceLookup> {
  let bytes: Uint8Array;
  try {
    bytes = await catalogue.readDocument(`api/loadouts/${id}.json`, DOCUMENT_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof LoadoutError)) throw error;
    return { licence: null, why: `its catalogue at ${catalogue.location} could not be read (${error.message})` };
  }
  let record: unknown;
  try {
    record = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return { licence: null, why: `its record in the catalogue at ${catalogue.location} is not JSON` };
  }
  const fields = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : {};
  if (fields['id'] !== id) return { licence: null, why: `the record at ${catalogue.location} has id ${show(fields['id'])} (expected ${show(id)})` };
  const licence = fields['license'];
  if (!(LICENCES as readonly unknown[]).includes(licence)) return { licence: null, why: `its record's license is ${show(licence)} (expected one of ${LICENCES.join(', ')})` };
  return { licence: licence as Licence };
}
