/**
 * `size`: at most 30 files, 32 KB (32,768 bytes) per file, 128 KB (131,072 bytes) in total,
 * and at most 500 lines per skill or rule file (spec "Limits": verification size check).
 * The manifest is not counted: the limits are on the loadout's files. A loadout that passes an
 * agent's documented context cap on its own, as installed for that agent
 * (`layout/context-caps.ts` over `layout/installed-files.ts`), gets a notice naming the agent,
 * the cap, its source and by how much (issue 33, point 4): it installs, but the agent reads less
 * of it than there is. A file read only in part because it passes the limits
 * (`LoadoutSource.oversized`, catalogue/source.ts) counts with its size on disk, and its finding
 * says that the other checks did not look at it.
 */
import { countLines } from '../../catalogue/lines.js';
import { READ_LIMITS } from '../../catalogue/source.js';
import { LIMITS } from '../../catalogue/vocabulary.js';
import { judge, plural, type Check, type Finding } from '../check.js';
import { atPointer } from '../locate.js';
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { checkFileCaps, checkSkillsList, describeCapWarning } from '../../layout/context-caps.js';
import type { CheckContext } from '../check.js';

export const size: Check = {
  id: 'size',
  name: 'Size limits',
  run(context) {
    const findings: Finding[] = [];
    const files = context.source.files;
    if (files.size > LIMITS.files) {
      findings.push({ ...atPointer(context, '/files'), message: `has ${files.size} files (expected at most ${LIMITS.files})` });
    }
    // A file read only in part (catalogue/source.ts READ_LIMITS, past these limits) counts its size on disk.
    const oversized = context.source.oversized ?? new Map<string, number>();
    const unread = ' (read only in part: the other checks did not look at it)';
    let total = 0;
    for (const [path, bytes] of files) {
      const size = oversized.get(path) ?? bytes.byteLength;
      total += size;
      if (size > LIMITS.fileBytes) {
        // The line where it passes the limit, when its first bytes up to there were read.
        const line = bytes.byteLength > LIMITS.fileBytes ? lineAtByte(bytes, LIMITS.fileBytes) : undefined;
        findings.push({ file: path, ...(line === undefined ? {} : { line }), message: `is ${size} bytes (expected at most ${LIMITS.fileBytes} bytes, 32 KB)${oversized.has(path) ? unread : ''}` });
      }
    }
    if (total > LIMITS.totalBytes) {
      const past = [...oversized.keys()].filter((path) => (oversized.get(path) ?? 0) <= LIMITS.fileBytes);
      const note = past.length === 0 ? '' : `; ${plural(past.length, 'file')} past the first ${READ_LIMITS.totalBytes} bytes ${past.length === 1 ? 'was' : 'were'} read only in part, and the other checks did not look at ${past.length === 1 ? 'it' : 'them'}: ${past.slice(0, 5).join(', ')}${past.length > 5 ? ', …' : ''}`;
      findings.push({ ...atPointer(context, '/files'), message: `files total ${total} bytes (expected at most ${LIMITS.totalBytes} bytes, 128 KB)${note}` });
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
    findings.push(...capNotices(context));
    return judge(findings, `${plural(files.size, 'file')}, ${total} bytes, within limits`, (n) => plural(n, 'size problem'));
  },
};

/** A notice for each agent's documented cap the loadout passes alone, as installed for that agent. */
function capNotices(context: CheckContext): Finding[] {
  return PUBLISHED_AGENTS.flatMap((agent) => {
    const installed = context.installedAs(agent);
    if (installed === undefined) return [];
    const planned = installed.plan.files.map(({ entry, target }) => ({ path: entry.path, target, text: installed.text(entry.path, target) ?? context.text(entry.path) ?? '' }));
    const files = planned.flatMap((f) => checkFileCaps(agent, f.target, f.text).map((w) => ({ file: f.path, w })));
    const skills = planned.filter((f) => f.target.endsWith('/SKILL.md'));
    const list = checkSkillsList(agent, skills.map((f) => f.text)).map((w) => ({ file: skills[0]?.path ?? 'loadout.yaml', w }));
    // The line of the author's file where the cap is passed (the installed text differs only in front matter and links).
    return [...files, ...list].map(({ file, w }): Finding => ({ file, line: lineAtOffset(context.text(file) ?? '', w.cap.limit, w.cap.unit), message: `as installed, ${describeCapWarning(w)}`, severity: 'notice' }));
  });
}

/** 1-based line of `text` holding its `offset`-th byte or character (its last line when shorter). */
function lineAtOffset(text: string, offset: number, unit: 'bytes' | 'characters'): number {
  const head = unit === 'bytes' ? Buffer.from(text, 'utf8').subarray(0, offset).toString('utf8') : [...text].slice(0, offset).join('');
  return countLines(head.endsWith('\n') ? head.slice(0, -1) : head) || 1;
}

/** 1-based line holding byte `offset` (where a file first goes over a limit). */
function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 10) line++;
  return line;
}
