/**
 * The files of a loadout as an install writes them for one agent (DESIGN.md "Fidelity"; issue
 * 33): the install plan (`plan.ts`) plus each planned file's text as the agent reads it:
 * - rules translated to the agent's scoping keys (`rule-translation.ts`), MCP files in the
 *   agent's shape (`mcp-formats.ts`);
 * - Codex's rules composed into the loadout's `AGENTS.md` text as sections, each headed
 *   `## Rule <name> (<loadout id>)` and saying its scope in its first line (Codex reads every
 *   `AGENTS.md` from the project root down: developers.openai.com/codex/guides/agents-md);
 * - Gemini CLI's rules written as files and imported by `@./…` lines appended to the loadout's
 *   `GEMINI.md` text (geminicli.com/docs/reference/memport);
 * - every relative link, image and `@` import of a Markdown file rewritten to where its target
 *   landed (`link-rewrite.ts`).
 * The build publishes exactly these bytes (record `install` hashes, per-agent zips) and the
 * installer writes them, so both agree.
 *
 * Several agents in one project share targets (`AGENTS.md` for all six, `.agents/skills/` for
 * five): a shared file must have one text whichever agent's install writes it, and its links
 * must resolve for every agent that reads it. So a file at target T is rendered for the agents
 * of `sharing` whose plans put the same file at T (the readers of T), deterministically: a link
 * goes to the section when some reader composes its target into T as a section (the section is
 * in T, which every reader of T reads); else to the place where the target landed when it
 * landed at the same place for every reader; else to the pinned raw address. Alone
 * (`sharing` = the agent), every link goes where its target landed for that agent. Pure.
 */
import type { FileEntry } from '../catalogue/manifest.js';
import { isMarkdownPath } from '../catalogue/markdown.js';
import { expandsImports } from '../catalogue/markdown-references.js';
import { readFrontMatterForInstall } from '../catalogue/front-matter-data.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { baseName, resolveInstallTarget, type InstallTarget } from './layout.js';
import { relativeTo, rewriteReferences, type Landing, type RewriteContext, type UnresolvedReference } from './link-rewrite.js';
import { resolveInstallPlan, type InstallPlan } from './plan.js';
import { installedText, translateRule } from './rule-translation.js';

/** One version of a loadout: its id, version, file entries, the text of each file and its pinned raw address. */
export interface LoadoutFiles {
  id: string;
  version: string;
  files: readonly FileEntry[];
  /** A file's UTF-8 text, or undefined (missing, or not UTF-8: installed as it is). */
  text(path: string): string | undefined;
  /** The pinned raw address of a file: `{base}/raw/<id>/<version>/<path>` (tree-format `rawUrl`). */
  rawUrl(path: string): string;
}

/** Options of {@link layoutInstall}. */
export interface LayoutOptions {
  /** The agents of this loadout in the project after the install, `agent` among them (default: `agent` alone). */
  sharing?: readonly Agent[];
  /** The install target resolver: the project layout by default, the user layout for `--global`. */
  resolve?: (entry: FileEntry, agent: Agent) => InstallTarget;
}

/** A reference of an installed file that cannot be made to resolve: the loadout file, its line, and why. */
export interface UnresolvedLink extends UnresolvedReference {
  file: string;
}

/** One agent's install of a loadout, with each planned file's text as written. */
export interface InstalledFiles {
  plan: InstallPlan;
  /**
   * The text of a planned file as installed, by loadout path and, for a file planned at several
   * targets (`InstallTarget.also`: each in its own file's shape), the target (default: its first);
   * undefined for a file with no text (written as it is).
   */
  text(path: string, target?: string): string | undefined;
  /** References that cannot be made to resolve, in plan order. */
  unresolved: UnresolvedLink[];
}

/**
 * The heading of a rule composed as a section, and its anchor (GitHub's heading slug: lower
 * case, characters other than letters, digits, `_`, `-` and spaces dropped, spaces to `-`).
 * The loadout id keeps two loadouts' rules of one name apart in a shared `AGENTS.md`.
 */
export function ruleSection(id: string, rulePath: string): { heading: string; anchor: string } {
  const heading = `Rule ${baseName(rulePath)} (${id})`;
  return { heading, anchor: heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /gu, '-') };
}

/** Where each loadout path is for one agent: its planned target, or the section it became. */
function landingsOf(plan: InstallPlan, id: string): Map<string, Landing> {
  const landings = new Map<string, Landing>();
  // A file planned at several targets (`InstallTarget.also`) lands, for links, at its first.
  for (const { entry, target } of plan.files) if (!landings.has(entry.path)) landings.set(entry.path, { target });
  for (const c of plan.composed) if (c.as === 'section') landings.set(c.entry.path, { target: c.into, anchor: ruleSection(id, c.entry.path).anchor });
  return landings;
}

/** `text` ending in exactly one newline (trailing newlines counted from the end, in linear time). */
function endLine(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return `${text.slice(0, end)}\n`;
}

/** The key of a file's text at one target (NUL is in no path). */
const textKey = (path: string, target: string): string => `${target}\u0000${path}`;

const sameLanding = (a: Landing | undefined, b: Landing | undefined): boolean => a?.target === b?.target && a?.anchor === b?.anchor;

/** The front matter left in a translated rule (keys that scope no agent) taken off: a section has none. */
function withoutFrontMatter(text: string): string {
  const fm = readFrontMatterForInstall(text);
  return fm.present && fm.errors.length === 0 ? fm.body.replace(/^\r?\n/u, '') : text;
}

/**
 * The install of `loadout` for `agent`: its plan and each planned file's text as written (see
 * the module comment). Pure; never throws.
 */
export function layoutInstall(loadout: LoadoutFiles, agent: Agent, options: LayoutOptions = {}): InstalledFiles {
  const resolve = options.resolve ?? resolveInstallTarget;
  const agents = [...new Set([agent, ...(options.sharing ?? [])])];
  const plans = new Map(agents.map((a) => [a, resolveInstallPlan(loadout.files, a, loadout.text, resolve)] as const));
  const plan = plans.get(agent) as InstallPlan;
  const landings = new Map(agents.map((a) => [a, landingsOf(plans.get(a) as InstallPlan, loadout.id)] as const));
  const paths = new Set(loadout.files.map((f) => f.path));
  const unresolved: UnresolvedLink[] = [];
  const texts = new Map<string, string>();

  for (const { entry, target } of plan.files) {
    const source = loadout.text(entry.path);
    if (source === undefined) continue;
    // The readers of this target: the agents whose plans put this file there.
    const readers = agents.filter((a) => plans.get(a)?.files.some((f) => f.entry.path === entry.path && f.target === target));
    const composed = readers.flatMap((a) => (plans.get(a) as InstallPlan).composed.filter((c) => c.into === target).map((c) => ({ ...c, agent: a })));
    const sections = new Set(composed.filter((c) => c.as === 'section').map((c) => c.entry.path));
    const context: RewriteContext = {
      paths,
      rawUrl: loadout.rawUrl,
      landing: (path) => {
        if (sections.has(path)) return { target, anchor: ruleSection(loadout.id, path).anchor };
        const [first, ...rest] = readers.map((a) => landings.get(a)?.get(path));
        return first !== undefined && rest.every((l) => sameLanding(l, first)) ? first : undefined;
      },
    };
    const rewrite = (text: string, from: string): string => {
      if (!isMarkdownPath(from)) return text;
      // `@` tokens are imports where the author's file is one an agent expands (the `references` check reads them so) and the installed file is too: a rule's `@` stays prose in a section of AGENTS.md.
      const result = rewriteReferences(text, { source: from, target, imports: expandsImports(from) && expandsImports(target) }, context);
      unresolved.push(...result.unresolved.map((u) => ({ ...u, file: from })));
      return result.text;
    };
    // Links are rewritten in the author's text (so reported lines are the author's), then the file is put in the agent's form (rules translated, MCP files in the agent's shape).
    let text = installedText(entry.role, agent, rewrite(source, entry.path), target);
    const seen = new Set<string>();
    const imports: string[] = [];
    for (const c of composed) {
      if (seen.has(c.entry.path)) continue;
      seen.add(c.entry.path);
      if (c.as === 'import') {
        const imported = (plans.get(c.agent) as InstallPlan).files.find((f) => f.entry.path === c.entry.path)?.target;
        if (imported !== undefined) imports.push(`@./${relativeTo(target, imported)}\n`);
        continue;
      }
      const rule = loadout.text(c.entry.path);
      if (rule === undefined) continue;
      const body = withoutFrontMatter(translateRule(rewrite(rule, c.entry.path), c.agent));
      text = `${endLine(text)}\n## ${ruleSection(loadout.id, c.entry.path).heading}\n\n${endLine(body)}`;
    }
    if (imports.length > 0) text = `${endLine(text)}\n${imports.join('')}`;
    texts.set(textKey(entry.path, target), text);
    if (!texts.has(entry.path)) texts.set(entry.path, text);
  }
  return { plan, text: (path, target) => texts.get(target === undefined ? path : textKey(path, target)), unresolved };
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** A file's UTF-8 text, or undefined when its bytes are not UTF-8. */
export function decodeText(bytes: Uint8Array | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a planned file as installed (at `target`, for a file planned at several): `raw` itself when the install leaves the text as it
 * is (or the file has no text), else the installed text's UTF-8 bytes.
 */
export function installedBytesOf(installed: InstalledFiles, path: string, raw: Uint8Array, target?: string): Uint8Array {
  const text = installed.text(path, target);
  if (text === undefined || text === decodeText(raw)) return raw;
  return encoder.encode(text);
}
