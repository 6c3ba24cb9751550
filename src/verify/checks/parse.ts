/**
 * `parse`: every file is UTF-8 text; JSON, YAML and TOML files parse; Markdown front matter
 * parses; each `SKILL.md` has `name` equal to its folder and a `description`; each subagent
 * has `name` and `description` (DESIGN.md section 4; Agent Skills specification; Claude Code,
 * Gemini CLI and Copilot subagent docs all require `name` and `description`).
 */
import { parse as parseToml } from 'smol-toml';
import { LineIndex } from '../text/line-index.js';
import type { TextView } from '../text/view.js';
import { parseYamlSource } from '../../catalogue/yaml-document.js';
import { judge, plural, pluralWithVerb, type Check, type CheckContext, type Finding } from '../check.js';

export const parse: Check = {
  id: 'parse',
  name: 'Files parse',
  run(context) {
    const findings: Finding[] = [];
    // Reference files are read as plain text: a template's placeholder front matter ("title: [Name]") is content, not configuration.
    const plainText = new Set((context.manifest?.files ?? []).filter((f) => f.role === 'reference').map((f) => f.path));
    for (const [path, bytes] of context.source.files) {
      // Read only in part, past the size limits: `size` reports it, and its text was not read.
      if (context.source.oversized?.has(path) === true) continue;
      const view = context.view(path);
      if (view === undefined) {
        findings.push({ file: path, line: lineOfInvalidUtf8(bytes), message: 'is not valid UTF-8 text (expected a UTF-8 text file)' });
        continue;
      }
      const nul = view.text.indexOf('\u0000');
      if (nul >= 0) {
        findings.push({ file: path, line: view.lines.lineOf(nul), message: 'contains a NUL byte (expected text, not binary content)' });
        continue;
      }
      findings.push(...parseByKind(path, view, plainText.has(path)));
    }
    findings.push(...checkDeclaredFrontMatter(context));
    return judge(findings, pluralWithVerb(context.source.files.size, 'file', ['parses', 'parse']), (n) => plural(n, 'parse error'));
  },
};

function parseByKind(path: string, view: TextView, plainMarkdown: boolean): Finding[] {
  const { text } = view;
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  switch (ext) {
    case 'json':
      try {
        JSON.parse(text);
        return [];
      } catch (error) {
        return [{ file: path, line: jsonErrorLine(text, error), message: `invalid JSON: ${(error as Error).message}` }];
      }
    case 'yaml':
    case 'yml':
      return parseYamlSource(text).errors.map((e) => ({ file: path, line: e.line, message: `invalid YAML: ${e.message}` }));
    case 'toml':
      try {
        parseToml(text);
        return [];
      } catch (error) {
        const line = (error as { line?: number }).line;
        return [{ file: path, ...(line === undefined ? {} : { line }), message: `invalid TOML: ${((error as Error).message.split('\n')[0] ?? '').trim()}` }];
      }
    case 'md':
    case 'mdc':
    case 'markdown':
      if (plainMarkdown) return [];
      return view.frontMatter.errors.map((e) => ({ file: path, line: e.line, message: e.message }));
    default:
      return [];
  }
}

/** Skill entry files and subagents need `name` and `description` in their front matter. */
function checkDeclaredFrontMatter(context: CheckContext): Finding[] {
  const findings: Finding[] = [];
  for (const entry of context.manifest?.files ?? []) {
    const isSkillEntry = entry.role === 'skill' && entry.path === `skills/${entry.skill ?? ''}/SKILL.md`;
    if (!isSkillEntry && entry.role !== 'subagent') continue;
    const view = context.view(entry.path);
    if (view === undefined) continue;
    const { text, frontMatter: fm } = view;
    if (fm.errors.length > 0) continue; // reported above
    const what = isSkillEntry ? 'SKILL.md' : 'a subagent';
    if (!fm.present) {
      findings.push({ file: entry.path, line: 1, message: `has no front matter (expected ${what} to start with "---" and give name and description)` });
      continue;
    }
    const name = fm.data['name'];
    const description = fm.data['description'];
    if (typeof name !== 'string' || name.trim() === '') {
      findings.push({ file: entry.path, line: 2, message: `front matter has no "name" (expected ${isSkillEntry ? `name: ${entry.skill ?? ''}` : 'a name'})` });
    } else if (isSkillEntry && name !== entry.skill) {
      findings.push({ file: entry.path, line: lineOfKey(text, 'name'), message: `front matter name is "${name}" (expected "${entry.skill ?? ''}", the skill folder name)` });
    }
    if (typeof description !== 'string' || description.trim() === '') {
      findings.push({ file: entry.path, line: 2, message: `front matter has no "description" (expected ${what} to say what it does and when to use it)` });
    }
  }
  return findings;
}

function lineOfKey(text: string, key: string): number {
  const index = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
  return index < 0 ? 2 : index + 1;
}


function jsonErrorLine(text: string, error: unknown): number | undefined {
  const message = (error as Error).message;
  const lineCol = /line (\d+)/u.exec(message);
  if (lineCol?.[1] !== undefined) return Number(lineCol[1]);
  const position = /position (\d+)/u.exec(message);
  return position?.[1] === undefined ? undefined : new LineIndex(text).lineOf(Number(position[1]));
}

function lineOfInvalidUtf8(bytes: Uint8Array): number {
  // UTF-8 never uses byte 10 inside a multi-byte sequence, so each line decodes on its own.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 10) {
      try {
        decoder.decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      start = i + 1;
      line++;
    }
  }
  return 1;
}
