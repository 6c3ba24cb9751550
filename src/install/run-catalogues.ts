/**
 * The catalogues one command run reads (`update`, `outdated`): one reader per catalogue, by
 * the source the lock records it under (`lockSource`), so that every entry of the lock read
 * from one catalogue is checked against the one signed snapshot that reader verified once.
 * A reader per entry would let a mirror answer the first entry with the newest snapshot and
 * the second with an older one, both accepted, and the older one's time recorded last
 * (issue 35, point 3; TUF specification 5.5: one snapshot per update).
 */
import { openCatalogue, type CatalogueReader } from './catalogue/catalogue-reader.js';
import type { SigningPolicy } from './catalogue/signed-catalogue.js';
import { lockSource } from './install.js';
import type { LockFile } from './project/lock.js';

/**
 * A function giving the reader of `source` for this run: the first call opens it with what
 * `lock` pinned for it (its `trust` entry) and `signing`; later calls give the same reader.
 * @throws ConsumerError `BadSource` (see `catalogueBaseUrl`)
 */
export function catalogueOpener(lock: LockFile, signing: SigningPolicy = {}): (source: string) => CatalogueReader {
  const open = new Map<string, CatalogueReader>();
  return (source) => {
    const key = lockSource(source);
    let reader = open.get(key);
    if (reader === undefined) {
      const pinned = lock.trust?.[key];
      reader = openCatalogue(source, { ...signing, ...(pinned === undefined ? {} : { pinned }) });
      open.set(key, reader);
    }
    return reader;
  };
}
