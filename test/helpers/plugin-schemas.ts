/**
 * The vendors' plugin and marketplace schemas vendored in test/fixtures/plugin-schemas/ (README
 * there: sources and licences), compiled as published: not strict (SchemaStore's use keywords
 * Ajv's strict mode refuses).
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const SCHEMAS = new URL('../fixtures/plugin-schemas/', import.meta.url);
const schema = (path: string): object => JSON.parse(readFileSync(new URL(path, SCHEMAS), 'utf8')) as object;
const addFormats = (addFormatsModule as unknown as { default: (a: Ajv | Ajv2020) => void }).default;

let validators: Record<PluginSchema, ValidateFunction> | undefined;

/** The schemas by name. */
export type PluginSchema = 'agentPlugin' | 'claudePlugin' | 'claudeMarketplace' | 'cursorMarketplace';

/** Ajv's errors for `value` against the named schema, as `name/pointer message` lines ([] when valid). */
export function pluginSchemaErrors(name: PluginSchema, value: unknown): string[] {
  if (validators === undefined) {
    const draft7 = new Ajv({ allErrors: true, strict: false });
    addFormats(draft7);
    const draft2020 = new Ajv2020({ allErrors: true, strict: false });
    addFormats(draft2020);
    validators = {
      agentPlugin: draft2020.compile(schema('agent-plugins/plugin.schema.json')),
      claudePlugin: draft7.compile(schema('schemastore/claude-code-plugin-manifest.json')),
      claudeMarketplace: draft7.compile(schema('schemastore/claude-code-marketplace.json')),
      cursorMarketplace: draft7.compile(schema('cursor/marketplace.schema.json')),
    };
  }
  const validate = validators[name];
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message ?? ''}`);
}
