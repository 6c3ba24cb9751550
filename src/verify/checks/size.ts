/**
 * `size`: at most 30 files, 32 KB (32,768 bytes) per file, 128 KB (131,072 bytes) in total,
 * and at most 500 lines per skill or rule file (spec "Limits": verification size check).
 * The manifest is not counted: the limits are on the loadout's files.
 */
import { countLines } from '../../catalogue/lines.js';
import { LIMITS } from '../../catalogue/vocabulary.js';
import { judge, plural, type Check, type Finding } from '../check.js';
import { atPointer } from '../locate.js';

export const size: Check = {
  id: 'size',
  name: 'Size limits',
  run(context) {
    const findings: Finding[] = [];
    const files = context.source.files;
    if (files.size > LIMITS.files) {
      findings.push({ ...atPointer(context, '/files'), message: `has ${files.size} files (expected at most ${LIMITS.files})` });
    }
    let total = 0;
    for (const [path, bytes] of files) {
      total += bytes.byteLength;
      if (bytes.byteLength > LIMITS.fileBytes) {
        findings.push({ file: path, line: lineAtByte(bytes, LIMITS.fileBytes), message: `is ${bytes.byteLength} bytes (expected at most ${LIMITS.fileBytes} bytes, 32 KB)` });
      }
    }
    if (total > LIMITS.totalBytes) {
      findings.push({ ...atPointer(context, '/files'), message: `files total ${total} bytes (expected at most ${LIMITS.totalBytes} bytes, 128 KB)` });
    }
    for (const entry of context.manifest?.files ?? []) {
      if (entry.role !== 'skill' && entry.role !== 'rules') continue;
      const text = context.text(entry.path);
      if (text === undefined) continue;
      const lines = countLines(text);
      if (lines > LIMITS.linesPerSkillOrRule) {
        findings.push({ file: entry.path, line: LIMITS.linesPerSkillOrRule + 1, message: `is ${lines} lines long (expected at most ${LIMITS.linesPerSkillOrRule} lines for a ${entry.role === 'skill' ? 'skill' : 'rule'} file)` });
      }
    }
    return judge(findings, `${plural(files.size, 'file')}, ${total} bytes, within limits`, (n) => plural(n, 'size problem'));
  },
};

/** 1-based line holding byte `offset` (where a file first goes over a limit). */
function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 10) line++;
  return line;
}
