// Writes schema/loadout.validate.cjs and schema/bundle.validate.cjs, the authoring schemas'
// validators as code (src/catalogue/schema-standalone.ts): `npm run schema:validator` after a
// change to either schema.
import { writeFileSync } from 'node:fs';
import { BUNDLE_SCHEMA_PATH, SCHEMA_PATH } from '../src/catalogue/schema.js';
import { BUNDLE_VALIDATOR_PATH, standaloneValidatorSource, VALIDATOR_PATH } from '../src/catalogue/schema-standalone.js';

for (const [validator, schema] of [
  [VALIDATOR_PATH, SCHEMA_PATH],
  [BUNDLE_VALIDATOR_PATH, BUNDLE_SCHEMA_PATH],
] as const) {
  writeFileSync(validator, standaloneValidatorSource(schema));
  console.error(`wrote ${validator}`);
}
