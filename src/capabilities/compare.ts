/**
 * What an update changes in what a loadout can run (issue 54, point 3): two capability lists
 * compared item by item, each change marked `added`, `widened`, `removed` or `narrowed`, so
 * that `outdated` can mark and `update` can stop at an update that adds or widens anything,
 * while one that only edits text goes through. An item is known by its identity (a server by
 * its name, a hook by its file, event, matcher and command, a grant by its file, subject and
 * key, a script by its path, a host by itself, a variable by its name); a change of what an
 * item runs or reaches widens it:
 *
 * - a server: another command, package, registry or transport; a pinned package unpinned or
 *   moved to another version; another host; a variable more; (narrowed: pinned, a variable less);
 * - a grant: a tool more; consent needed where it was not; another permission mode;
 * - a script: another interpreter; a variable: now a secret.
 *
 * Pure.
 */
import type { CapabilityList, EnvCapability, HookCapability, McpServerCapability, NetworkCapability, PermissionCapability, ScriptCapability } from '../tree-format/capabilities.js';
import { describeServerLine } from './describe.js';
import type { CapabilityLists } from './digest.js';

/** One change between two capability lists. */
export interface CapabilityChangeItem {
  list: CapabilityList;
  change: 'added' | 'widened' | 'removed' | 'narrowed';
  /** The item's identity within its list (see the module comment). */
  key: string;
  /** What changed, in one line: `new MCP server "x": runs …`, `MCP server "x": postgres-mcp unpinned (was 1.2.0)`. */
  text: string;
}

/** What an update changes in the capabilities, in a stable shape (`update --json`). */
export interface CapabilityChange {
  /** True when anything is added or widened: the update waits for the user's yes. */
  widens: boolean;
  items: CapabilityChangeItem[];
}

type Keyed<T> = Map<string, T>;
const keyed = <T>(items: readonly T[], key: (item: T) => string): Keyed<T> => new Map(items.map((item) => [key(item), item]));

const serverKey = (s: McpServerCapability): string => s.name;
const hookKey = (h: HookCapability): string => `${h.file} ${h.event} ${h.matcher ?? '*'} ${h.type} ${h.command}`;
const permissionKey = (p: PermissionCapability): string => `${p.file} ${p.subject} ${p.key}`;
const scriptKey = (s: ScriptCapability): string => s.path;
const networkKey = (n: NetworkCapability): string => `${n.host ?? '(a host named at run time)'}: ${n.what}`;
const envKey = (e: EnvCapability): string => e.name;

/** How one server changed, as widening and narrowing phrases. */
function serverChanges(before: McpServerCapability, after: McpServerCapability): { widened: string[]; narrowed: string[] } {
  const widened: string[] = [];
  const narrowed: string[] = [];
  if (before.transport !== after.transport) widened.push(`transport ${before.transport} → ${after.transport}`);
  if ((before.command ?? '') !== (after.command ?? '')) widened.push(`command ${JSON.stringify(before.command ?? '')} → ${JSON.stringify(after.command ?? '')}`);
  const a = before.package;
  const b = after.package;
  if (a !== undefined && b !== undefined) {
    if (a.registry !== b.registry || a.name !== b.name) widened.push(`package ${a.name} (${a.registry}) → ${b.name} (${b.registry})`);
    else if (a.pinned && !b.pinned) widened.push(`${b.name} unpinned (was ${a.version ?? 'pinned'}, now ${b.version ?? 'any version'})`);
    else if (!a.pinned && b.pinned) narrowed.push(`${b.name} pinned at ${b.version ?? ''}`);
    else if (a.version !== b.version) widened.push(`${b.name} ${a.version ?? 'any version'} → ${b.version ?? 'any version'}`);
  } else if ((a === undefined) !== (b === undefined)) widened.push('now runs another program');
  if ((before.host ?? '') !== (after.host ?? '')) widened.push(`host ${before.host ?? 'none'} → ${after.host ?? 'none'}`);
  const names = (s: McpServerCapability): Set<string> => new Set(s.env.map((e) => e.name));
  const newVars = after.env.filter((e) => !names(before).has(e.name));
  const goneVars = before.env.filter((e) => !names(after).has(e.name));
  if (newVars.length > 0) widened.push(`reads ${newVars.map((e) => (e.secret ? `${e.name} (secret)` : e.name)).join(', ')}`);
  if (goneVars.length > 0) narrowed.push(`no longer reads ${goneVars.map((e) => e.name).join(', ')}`);
  return { widened, narrowed };
}

function permissionChanges(before: PermissionCapability, after: PermissionCapability): { widened: string[]; narrowed: string[] } {
  const widened: string[] = [];
  const narrowed: string[] = [];
  const more = after.value.filter((v) => !before.value.includes(v));
  const less = before.value.filter((v) => !after.value.includes(v));
  if (after.kind === 'permission-mode' || after.kind === 'auto-approval') {
    if (more.length > 0 || less.length > 0) (after.consent !== null ? widened : narrowed).push(`${before.value.join(', ')} → ${after.value.join(', ')}`);
  } else {
    if (more.length > 0) widened.push(`adds ${more.join(', ')}`);
    if (less.length > 0) narrowed.push(`drops ${less.join(', ')}`);
  }
  if (before.consent === null && after.consent !== null) widened.push(`now needs your consent: ${after.consent}`);
  return { widened, narrowed };
}

/**
 * Compares the lists of the installed version (`before`; undefined when it is not known: every
 * item of `after` is then new) with those of the version an update moves to. Pure.
 */
export function compareCapabilities(before: CapabilityLists | undefined, after: CapabilityLists): CapabilityChange {
  const items: CapabilityChangeItem[] = [];
  const empty: CapabilityLists = { mcp_servers: [], hooks: [], permissions: [], scripts: [], network: [], env: [] };
  const old = before ?? empty;

  const compareList = <T>(list: CapabilityList, a: readonly T[], b: readonly T[], key: (item: T) => string, describe: (item: T) => string, changes?: (x: T, y: T) => { widened: string[]; narrowed: string[] }): void => {
    const was = keyed(a, key);
    const now = keyed(b, key);
    for (const [k, item] of now) {
      const prior = was.get(k);
      if (prior === undefined) {
        items.push({ list, change: 'added', key: k, text: `new: ${describe(item)}` });
        continue;
      }
      const found = changes?.(prior, item);
      if (found === undefined) continue;
      if (found.widened.length > 0) items.push({ list, change: 'widened', key: k, text: `${describe(item)}: ${found.widened.join('; ')}` });
      else if (found.narrowed.length > 0) items.push({ list, change: 'narrowed', key: k, text: `${describe(item)}: ${found.narrowed.join('; ')}` });
    }
    for (const [k, item] of was) if (!now.has(k)) items.push({ list, change: 'removed', key: k, text: `gone: ${describe(item)}` });
  };

  compareList('mcp_servers', old.mcp_servers, after.mcp_servers, serverKey, (s) => `MCP server ${describeServerLine(s)}`, serverChanges);
  compareList('hooks', old.hooks, after.hooks, hookKey, (h) => `hook ${h.event}${h.matcher === null ? '' : ` (${h.matcher})`} in ${h.file}: ${JSON.stringify(h.command)}`);
  compareList('permissions', old.permissions, after.permissions, permissionKey, (p) => `${p.key} of ${p.subject} (${p.file}): ${p.value.join(', ')}`, permissionChanges);
  compareList('scripts', old.scripts, after.scripts, scriptKey, (s) => `script ${s.path}${s.interpreter === null ? '' : ` (${s.interpreter})`}`, (a, b) => ({ widened: a.interpreter === b.interpreter ? [] : [`interpreter ${a.interpreter ?? 'none'} → ${b.interpreter ?? 'none'}`], narrowed: [] }));
  compareList('network', old.network, after.network, networkKey, (n) => `host ${networkKey(n)}`);
  compareList('env', old.env, after.env, envKey, (e) => `variable ${e.name}${e.secret ? ' (secret)' : ''}`, (a, b) => ({ widened: !a.secret && b.secret ? ['now a secret'] : [], narrowed: [] }));
  return { widens: items.some((i) => i.change === 'added' || i.change === 'widened'), items };
}
