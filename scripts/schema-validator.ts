// Writes schema/loadout.validate.cjs, the authoring schema's validator as code
// (src/catalogue/schema-standalone.ts): `npm run schema:validator` after a change to the schema.
import { writeFileSync } from 'node:fs';
import { SCHEMA_PATH } from '../src/catalogue/schema.js';
import { standaloneValidatorSource, VALIDATOR_PATH } from '../src/catalogue/schema-standalone.js';

writeFileSync(VALIDATOR_PATH, standaloneValidatorSource(SCHEMA_PATH));
console.error(`wrote ${VALIDATOR_PATH}`);
