/**
 * The official JSON Schemas of CycloneDX 1.6 and SPDX 2.3 (test/fixtures/sbom/, with their
 * sources), compiled once with Ajv's draft-07 validator, every format checked (see the README
 * there for the two formats ajv-formats lacks).
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schema = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(`../fixtures/sbom/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** A draft-07 validator with ajv-formats, `iri-reference` as `uri-reference` and `idn-email` as `email`; `strict: false` for the schemas' own keywords (`meta:enum`, `examples` beside `$ref`). */
function makeAjv(): Ajv {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  ajv.addFormat('iri-reference', fullFormats['uri-reference']);
  ajv.addFormat('idn-email', fullFormats.email);
  return ajv;
}

const cycloneDx = makeAjv().addSchema([schema('spdx.schema.json'), schema('jsf-0.82.schema.json')]).compile(schema('bom-1.6.schema.json'));
const spdx = makeAjv().compile(schema('spdx-schema-2.3.json'));

const describeErrors = (errors: ErrorObject[] | null | undefined): string[] => (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);

/** What the CycloneDX 1.6 schema finds wrong in `document` (none: []). */
export function cycloneDxSchemaErrors(document: unknown): string[] {
  return cycloneDx(document) ? [] : describeErrors(cycloneDx.errors);
}

/** What the SPDX 2.3 schema finds wrong in `document` (none: []). */
export function spdxSchemaErrors(document: unknown): string[] {
  return spdx(document) ? [] : describeErrors(spdx.errors);
}
