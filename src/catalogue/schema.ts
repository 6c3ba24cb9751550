/**
 * The authoring JSON Schema (draft 2020-12, `schema/loadout.schema.json`) compiled with Ajv,
 * and the translation of Ajv's errors into messages that say what was expected.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { BUNDLE_VALIDATOR_PATH, VALIDATOR_PATH } from './schema-standalone.js';

/** Absolute path of the authoring schema file shipped with the package. */
export const SCHEMA_PATH = fileURLToPath(new URL('../../schema/loadout.schema.json', import.meta.url));

/** Absolute path of the bundle schema (`bundles/<id>/bundle.yaml`, issue 56), published by the build beside the authoring schema. */
export const BUNDLE_SCHEMA_PATH = fileURLToPath(new URL('../../schema/bundle.schema.json', import.meta.url));

/** One schema violation: a JSON pointer (RFC 6901) into the manifest and a message. */
export interface SchemaViolation {
  pointer: string;
  message: string;
}

/** Absolute path of the JSON Schema of a version's capability list (`tree-format/capabilities.ts`), published by the build. */
export const CAPABILITIES_SCHEMA_PATH = fileURLToPath(new URL('../../schema/capabilities.schema.json', import.meta.url));

/** The capability list's JSON Schema as a JSON object. @throws the file system's or JSON's error (a broken package) */
export function readCapabilitiesSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(CAPABILITIES_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
}

let schemaObject: Record<string, unknown> | undefined;
let validator: ValidateFunction | undefined;

/**
 * The authoring schema as a JSON object (read once; not compiled, which the build's
 * `api/schema.json` does not need and which takes Ajv tens of ms).
 */
export function readAuthoringSchema(): Record<string, unknown> {
  schemaObject ??= JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  return schemaObject;
}

/** Loads the validator now (once per thread), instead of on the first validation. */
export function prepareSchema(): void {
  compiled();
}

/**
 * The validator is the schema compiled ahead of time (schema-standalone.ts): loaded by the first
 * validation, not with this module, since the build's main thread reads the schema but never
 * validates (its threads do).
 */
const load = createRequire(import.meta.url);

function compiled(): ValidateFunction {
  validator ??= load(VALIDATOR_PATH) as ValidateFunction;
  return validator;
}

/**
 * Validates a parsed manifest against the authoring schema.
 * @returns every violation (Ajv `allErrors`), each with a pointer and an "expected …" message;
 *   an empty array when the manifest is valid. Never throws for bad data.
 */
export function validateAgainstSchema(data: unknown): SchemaViolation[] {
  return violationsOf(compiled(), data);
}

let bundleValidator: ValidateFunction | undefined;

/** The bundle schema as a JSON object. @throws the file system's or JSON's error (a broken package) */
export function readBundleSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(BUNDLE_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
}

/**
 * Validates a parsed `bundle.yaml` against the bundle schema (its validator made ahead of time,
 * `schema/bundle.validate.cjs`, as the authoring schema's is), with the messages of
 * {@link validateAgainstSchema}. Never throws for bad data.
 */
export function validateBundleAgainstSchema(data: unknown): SchemaViolation[] {
  bundleValidator ??= load(BUNDLE_VALIDATOR_PATH) as ValidateFunction;
  return violationsOf(bundleValidator, data);
}

/** Every violation `validate` finds in `data`, each once, in Ajv's order. */
function violationsOf(validate: ValidateFunction, data: unknown): SchemaViolation[] {
  if (validate(data)) return [];
  const errors = (validate.errors ?? []).filter((e) => !SILENT_KEYWORDS.has(e.keyword));
  const seen = new Set<string>();
  const violations: SchemaViolation[] = [];
  for (const error of errors) {
    const violation = describeError(error, data);
    const key = `${violation.pointer}\u0000${violation.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      violations.push(violation);
    }
  }
  return violations;
}

// `if` reports only that a `then` failed, and the failing `then` reports itself.
const SILENT_KEYWORDS = new Set(['if']);

function describeError(error: ErrorObject, data: unknown): SchemaViolation {
  const pointer = error.instancePath;
  const value = valueAt(data, pointer);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { pointer, message: `missing required field "${String(p['missingProperty'])}"` };
    case 'additionalProperties':
      return {
        pointer: `${pointer}/${escapePointer(String(p['additionalProperty']))}`,
        message: `unknown field "${String(p['additionalProperty'])}" (expected only the fields the schema lists${allowedFields(error)})`,
      };
    case 'propertyNames':
      return { pointer, message: `has a key that is not an agent identifier (expected one of claude-code, codex, cursor, gemini-cli, copilot)` };
    case 'enum':
      return { pointer, message: `is ${show(value)} (expected one of ${(p['allowedValues'] as unknown[]).map((v) => show(v)).join(', ')})` };
    case 'const':
      return { pointer, message: `is ${show(value)} (expected ${show(p['allowedValue'])})` };
    case 'type':
      return { pointer, message: `is ${typeName(value)} (expected ${String(p['type']).replace(',', ' or ')})` };
    case 'minLength':
      return { pointer, message: `is ${String(value).length} characters long (expected at least ${String(p['limit'])})` };
    case 'maxLength':
      return { pointer, message: `is ${String(value).length} characters long (expected at most ${String(p['limit'])})` };
    case 'minItems':
      return { pointer, message: `has ${(value as unknown[]).length} items (expected at least ${String(p['limit'])})` };
    case 'maxItems':
      return { pointer, message: `has ${(value as unknown[]).length} items (expected at most ${String(p['limit'])})` };
    case 'pattern':
      return { pointer, message: `is ${show(value)} (expected ${describePattern(String(p['pattern']))})` };
    case 'format':
      return { pointer, message: `is ${show(value)} (expected a ${String(p['format']).toUpperCase()} such as https://example.com/)` };
    case 'oneOf':
    case 'anyOf':
      return { pointer, message: `is ${show(value)} (expected a YYYY-MM-DD date or null)` };
    case 'not':
      return { pointer, message: describeNot(pointer) };
    case 'uniqueItems':
      return { pointer, message: `names ${show(valueAt(data, `${pointer}/${String(p['j'])}`))} twice (expected each item once)` };
    default:
      return { pointer, message: `${error.message ?? 'is invalid'} (schema keyword "${error.keyword}")` };
  }
}

function describeNot(pointer: string): string {
  if (pointer.startsWith('/files/')) {
    return 'has a field that its role does not allow ("agent" is for adapter files only; "skill" is for skill and reference files only)';
  }
  return 'is not allowed here';
}

function describePattern(pattern: string): string {
  if (pattern.startsWith('^[a-z0-9]+(?:-')) return 'a slug: lowercase letters and digits in groups separated by single hyphens';
  if (pattern.startsWith('^[0-9]+\\.')) return 'MAJOR.MINOR.PATCH with digits only, such as 1.0.0';
  if (pattern.startsWith('^[0-9]{4}')) return 'a date in YYYY-MM-DD form';
  return `to match ${pattern}`;
}

function allowedFields(error: ErrorObject): string {
  const props = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props === undefined ? '' : `: ${Object.keys(props).join(', ')}`;
}

function show(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Escapes one JSON pointer token (RFC 6901 section 3). */
export function escapePointer(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reads the value at an RFC 6901 pointer, or undefined. */
export function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let current: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}
