/**
 * `install-paths`: for every agent of the published record (all six: the record's `install`
 * and the per-agent zips hold every agent's targets, so a clash there stops the build),
 * each install target is a normalised relative path inside the project, no two files share a
 * target, no target is a folder of another or differs from it only in case
 * (`describePathClashes`), and no target is an agent's settings, hooks, permissions or MCP
 * configuration file (except an MCP file of role `mcp`, merged: `layout/protected-paths.ts`,
 * the table the installer applies too); skill files sit in their skill's folder; and for every
 * agent the loadout supports (its record's `compatibility` is not `unsupported`:
 * `layout/compatibility.ts`), each target is where the agent discovers that kind of file, and
 * rules, as translated for the agent (`layout/rule-translation.ts`), carry the front matter
 * the agent needs to apply them (Cursor: `alwaysApply`, `globs` or `description`; Copilot:
 * `applyTo`) (DESIGN.md sections 3, 4 and 8). It lays out the native plugin too, which the build
 * writes whatever agents the loadout supports, and fails what the plugin writer could not write
 * and two subagents of one name (`../plugin-paths.ts`).
 */
import { describePathClashes, describePathProblem } from '../../catalogue/file-path.js';
import { listSupportedAgents } from '../../layout/compatibility.js';
import { PUBLISHED_AGENTS, type Agent } from '../../catalogue/vocabulary.js';
import { isDiscoverable } from '../../layout/discovery.js';
import { resolveInstallTarget } from '../../layout/layout.js';
import { describeSettingsProblem } from '../../layout/protected-paths.js';
import { translateRuleFor } from '../../layout/rule-translation.js';
import { describeAgents, judge, plural, skip, type Check, type Finding } from '../check.js';
import { atPointer } from '../locate.js';
import { checkPluginPaths } from '../plugin-paths.js';

export const installPaths: Check = {
  id: 'install-paths',
  name: 'Install paths for every agent',
  run(context) {
    const manifest = context.manifest;
    if (manifest === undefined) return skip('not run: loadout.yaml is not valid');
    const findings: Finding[] = [];
    const skills = new Set<string>();
    manifest.files.forEach((entry, index) => {
      if (entry.role !== 'skill' && entry.role !== 'reference') return;
      skills.add(entry.skill ?? '');
      if (!entry.path.startsWith(`skills/${entry.skill ?? ''}/`)) {
        findings.push({ ...atPointer(context, `/files/${index}/path`), message: `${entry.path} is a ${entry.role} file of skill "${entry.skill ?? ''}" but is not under skills/${entry.skill ?? ''}/ (expected the skill's own folder)` });
      }
    });
    for (const skill of skills) {
      if (!manifest.files.some((f) => f.role === 'skill' && f.path === `skills/${skill}/SKILL.md`)) {
        findings.push({ ...atPointer(context, '/files'), message: `skill "${skill}" has no skills/${skill}/SKILL.md with role skill (expected one entry file per skill)` });
      }
    }
    let targets = 0;
    const agents = listSupportedAgents(manifest);
    for (const agent of PUBLISHED_AGENTS) {
      const supported = agents.includes(agent);
      const taken = new Map<string, string>();
      const pointers = new Map<string, string>();
      // A file's further targets (layout.ts `InstallTarget.also`: Copilot CLI's `.github/mcp.json`) are checked as its own.
      manifest.files.flatMap((entry, index) => {
        const { target, overridden, also } = resolveInstallTarget(entry, agent);
        return target === null ? [] : [target, ...(also ?? [])].map((at) => ({ entry, index, target: at, overridden }));
      }).forEach(({ entry, index, target, overridden }) => {
        if (supported) targets++;
        const pointer = overridden ? `/files/${index}/install_to/${agent}` : `/files/${index}/path`;
        const problem = describePathProblem(target);
        if (problem !== undefined) {
          findings.push({ ...atPointer(context, pointer), message: `${entry.path}: ${agent} target "${target}" ${problem}` });
          return;
        }
        const settings = describeSettingsProblem(entry.role, target);
        if (settings !== undefined) {
          findings.push({ ...atPointer(context, pointer), message: `${entry.path}: ${agent} target "${target}" ${settings}` });
          return;
        }
        const other = taken.get(target);
        if (other !== undefined) {
          findings.push({ ...atPointer(context, pointer), message: `${entry.path}: ${agent} target "${target}" is also the target of ${other} (expected one file per target)` });
        }
        taken.set(target, entry.path);
        pointers.set(target, pointer);
        if (!supported) return;
        if (!isDiscoverable(entry.role, agent, target)) {
          findings.push({ ...atPointer(context, pointer), message: `${entry.path}: ${agent} target "${target}" is not where ${agent} reads ${entry.role} files, so it would be ignored` });
        }
        if (entry.role === 'rules') findings.push(...checkRuleFrontMatter(entry.path, translatedFrontMatter(context.view(entry.path)?.text, agent), agent, target));
      });
      for (const clash of describePathClashes(taken.keys())) {
        findings.push({ ...atPointer(context, pointers.get(clash.path) ?? '/files'), message: `${taken.get(clash.path) ?? ''}: ${agent} target ${clash.message}` });
      }
    }
    findings.push(...checkPluginPaths(context, manifest));
    return judge(findings, `${plural(targets, 'install target')} across ${describeAgents(agents)}`, (n) => plural(n, 'install path problem'));
  },
};

/**
 * The front matter of a rule's `text` as translated for `agent` (the keys the translation
 * wrote), or undefined without text or when the rule's own front matter does not parse (the
 * `parse` check reports that).
 */
function translatedFrontMatter(text: string | undefined, agent: Agent): Readonly<Record<string, unknown>> | undefined {
  return text === undefined ? undefined : translateRuleFor(text, agent).data;
}

function checkRuleFrontMatter(path: string, data: Readonly<Record<string, unknown>> | undefined, agent: string, target: string): Finding[] {
  if (data === undefined) return [];
  const has = (key: string): boolean => data[key] !== undefined && data[key] !== null && data[key] !== '';
  if (agent === 'cursor' && !(data['alwaysApply'] === true || has('globs') || has('description'))) {
    return [{ file: path, line: 1, message: `installs to ${target} but has no alwaysApply, globs or description front matter, so Cursor applies it only when mentioned (expected at least one)` }];
  }
  if (agent === 'copilot' && !has('applyTo')) {
    return [{ file: path, line: 1, message: `installs to ${target} but has no applyTo front matter, so Copilot never applies it automatically (expected applyTo: "<glob>")` }];
  }
  return [];
}
