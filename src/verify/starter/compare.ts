/**
 * One agent's starter build: install the plan into a copy of the fixture and compare the
 * resulting tree with "fixture + plan".
 */
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import type { Agent } from '../../catalogue/vocabulary.js';
import { applyInstallPlan } from '../../install/project/apply.js';
import { installedBytesOf } from '../../layout/installed-files.js';
import type { CheckContext, Finding } from '../check.js';
import { sha256, snapshotTree } from './tree.js';

/** Installs for `agent` into `project` (a fresh copy of fixture `name`) and returns what differs from the plan. */
export async function installIntoCopy(context: CheckContext, agent: Agent, name: string, project: string): Promise<{ installed: number; findings: Finding[] }> {
  const manifest = context.manifest;
  const installed = context.installedAs(agent);
  if (manifest === undefined || installed === undefined) return { installed: 0, findings: [] };
  const before = await snapshotTree(project);
  const plan = installed.plan;
  const result = await applyInstallPlan(installed, (p) => context.source.files.get(p), project);
  const findings: Finding[] = [];
  const lineOfEntry = (source: string): number | undefined => {
    const index = manifest.files.findIndex((f) => f.path === source);
    return context.manifestYaml?.lineOf(`/files/${index}/path`);
  };
  const at = (source: string, message: string): Finding => ({ file: MANIFEST_FILE, line: lineOfEntry(source), pointer: `/files/${manifest.files.findIndex((f) => f.path === source)}`, message: `for ${agent}: ${message}` });
  for (const c of result.collisions) {
    findings.push(at(c.source, `${c.source} installs to ${c.target}, which collides with fixtures/${name}/${c.target} of the starter fixture (expected install targets that the fixture does not already have)`));
  }
  for (const f of result.failures) findings.push(at(f.source, `${f.source} → ${f.target} ${f.message}`));
  const after = await snapshotTree(project);
  const expected = new Map(before);
  const planned = new Map<string, string>();
  for (const { entry, target } of plan.files) {
    const bytes = context.source.files.get(entry.path);
    if (bytes === undefined || result.collisions.some((c) => c.target === target) || result.failures.some((f) => f.target === target)) continue;
    // What the agent gets (layout/installed-files.ts).
    expected.set(target, sha256(installedBytesOf(installed, entry.path, bytes, target)));
    planned.set(target, entry.path);
  }
  for (const [path, hash] of expected) {
    const got = after.get(path);
    const source = planned.get(path);
    if (got === undefined) findings.push(source === undefined ? { file: MANIFEST_FILE, line: context.manifestYaml?.lineOf('/tested/fixture'), message: `for ${agent}: fixtures/${name}/${path} disappeared during the install (expected fixture files to stay)` } : at(source, `${source} was planned at ${path}, but the installed tree has no such file`));
    else if (got !== hash) findings.push(source === undefined ? { file: MANIFEST_FILE, line: context.manifestYaml?.lineOf('/tested/fixture'), message: `for ${agent}: fixtures/${name}/${path} was changed by the install (expected fixture files untouched)` } : at(source, `${path} does not hold the bytes of ${source} (as installed for ${agent}) after the install`));
  }
  for (const path of after.keys()) {
    if (!expected.has(path)) findings.push({ file: MANIFEST_FILE, line: context.manifestYaml?.lineOf('/files'), message: `for ${agent}: the install created ${path}, which the install plan does not list (expected exactly fixture + plan)` });
  }
  return { installed: result.written.length + result.unchanged.length, findings };
}
