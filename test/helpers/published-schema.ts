/** A validator for the published record form (`schema/published-record.schema.json`, with `schema/capabilities.schema.json`). */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const schema = JSON.parse(readFileSync(new URL('../../schema/published-record.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
(addFormatsModule as unknown as { default: (a: Ajv2020) => void }).default(ajv);
// The record's `capabilities` refers to the capability list's own schema, which the build also publishes.
ajv.addSchema(JSON.parse(readFileSync(new URL('../../schema/capabilities.schema.json', import.meta.url), 'utf8')) as object);
const validate = ajv.compile(schema);

/** Ajv's errors for `record` against the published form, as `pointer message` lines ([] when valid). */
export function publishedRecordErrors(record: unknown): string[] {
  return validate(record) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
