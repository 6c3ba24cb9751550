import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parseYamlSource, readManifestVersion } from '../../src/catalogue/yaml-document.js';

const LOADOUTS = fileURLToPath(new URL('../../loadouts', import.meta.url));

describe('parseYamlSource', () => {
  it('reads every real manifest exactly as the yaml library does', () => {
    for (const id of readdirSync(LOADOUTS)) {
      const text = readFileSync(join(LOADOUTS, id, 'loadout.yaml'), 'utf8');
      expect(parseYamlSource(text).data, id).toEqual(parseDocument(text).toJS());
    }
  });

  it('keeps YAML 1.2 core scalars: dates stay strings, yes stays a string, octal and nulls', () => {
    const { data, errors } = parseYamlSource('a: 2026-11-22\nb: yes\nc: 0o17\nd: ~\ne: null\nf: TRUE\ng: .inf\n');
    expect(errors).toEqual([]);
    expect(data).toEqual({ a: '2026-11-22', b: 'yes', c: 15, d: null, e: null, f: true, g: Infinity });
  });

  it('finds the line of a field after the fast parse', () => {
    const source = parseYamlSource('id: x\nfiles:\n  - path: a.md\n    role: rules\n  - path: b.md\n');
    expect(source.lineOf('/files/1/path')).toBe(5);
    expect(source.lineOf('/files/0/role')).toBe(4);
    expect(source.lineOf('/missing')).toBe(1);
  });

  it('reports syntax errors and duplicate keys with their lines', () => {
    expect(parseYamlSource('a: 1\nb: [1, 2\n').errors[0]?.line).toBeGreaterThanOrEqual(2);
    const duplicate = parseYamlSource('a: 1\nb: 2\na: 3\n');
    expect(duplicate.data).toBeUndefined();
    expect(duplicate.errors).toEqual([expect.objectContaining({ line: 3, message: expect.stringMatching(/unique/iu) })]);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    const result = parseYamlSource(bomb);
    expect(result.data).toBeUndefined();
    expect(result.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('alias') })]);
  });

  it('reads the version without a full parse, and with one for unusual forms', () => {
    expect(readManifestVersion('id: x\nversion: 1.2.3\n')).toBe('1.2.3');
    expect(readManifestVersion("id: x\nversion: '2.0.0' # pinned\n")).toBe('2.0.0');
    expect(readManifestVersion('{id: x, version: 3.0.1}')).toBe('3.0.1');
    expect(readManifestVersion('id: x\n')).toBeUndefined();
  });
});
