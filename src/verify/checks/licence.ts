/**
 * `licence`: the record's `license` is an SPDX licence id (spdx-license-ids) from the list
 * the catalogue accepts (spec: submission `licence` values), spelled exactly as SPDX does.
 */
import { createRequire } from 'node:module';
import { LICENCES } from '../../catalogue/vocabulary.js';
import { judge, skip, type Check } from '../check.js';
import { atPointer } from '../locate.js';

const spdxIds = createRequire(import.meta.url)('spdx-license-ids') as string[];
const SPDX = new Map(spdxIds.map((id) => [id.toLowerCase(), id]));

export const licence: Check = {
  id: 'licence',
  name: 'Licence',
  run(context) {
    const manifest = context.manifest;
    if (manifest === undefined) return skip('not run: loadout.yaml is not valid');
    const id = manifest.license;
    const allowed = (LICENCES as readonly string[]).includes(id);
    if (allowed) return judge([], `${id} (SPDX)`, () => '');
    const canonical = SPDX.get(id.toLowerCase());
    const message =
      canonical === undefined
        ? `/license "${id}" is not an SPDX licence id (expected one of ${LICENCES.join(', ')})`
        : canonical !== id
          ? `/license "${id}" is not spelled as SPDX spells it (expected "${canonical}")`
          : `/license "${id}" is an SPDX id the catalogue does not accept (expected one of ${LICENCES.join(', ')})`;
    return judge([{ ...atPointer(context, '/license'), message }], '', () => `licence ${JSON.stringify(id)} not accepted`);
  },
};
