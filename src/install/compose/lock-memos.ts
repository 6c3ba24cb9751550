/**
 * The lock's `containers`: per MCP configuration file, its containers as they were before the
 * installs (`json-members.ts`, {@link ContainerMemo}), so that the last install of a container
 * gives it back byte for byte (an absent `mcpServers` taken out again, an empty `{}` as it was
 * written). For example `"containers": {".gemini/settings.json": {"/mcpServers": null}}`. A lock
 * written before this field reads as one without it: nothing to give back but what the edits
 * themselves undo. A lock is untrusted (it may come with a cloned repository): a recorded text is
 * written into the user's file, so each must be an empty container (`describeMemoProblem`).
 * Pure.
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { mcpFileFormat } from '../../layout/mcp-formats.js';
import type { LockFile } from '../project/lock.js';
import { describeMemoProblem, type ContainerMemo } from './json-members.js';
import { containerKeys } from './mcp-servers.js';

/** The lock's top-level field. */
export const CONTAINERS_FIELD = 'containers';

/**
 * The memo of each target of `targets` that `lock` records (absent: none).
 * @throws LoadoutError `invalid_content` naming the field when the lock's record is not sound
 */
export function readContainerMemos(lock: LockFile, targets: readonly string[]): Record<string, ContainerMemo> {
  const field = lock[CONTAINERS_FIELD];
  if (field === undefined) return {};
  const refuse = (problem: string): LoadoutError => new LoadoutError('invalid_content', `the lock's ${CONTAINERS_FIELD}${problem}; nothing was written`, { hint: `Fix or delete the lock's "${CONTAINERS_FIELD}" field: without it, an uninstall leaves an empty "mcpServers" where there was none.` });
  if (field === null || typeof field !== 'object' || Array.isArray(field)) throw refuse(' is not an object of file: containers');
  const memos: Record<string, ContainerMemo> = {};
  for (const target of targets) {
    if (!Object.hasOwn(field, target)) continue;
    const memo = (field as Record<string, unknown>)[target];
    const problem = describeMemoProblem(memo, containerKeys(mcpFileFormat(target)));
    if (problem !== undefined) throw refuse(`[${JSON.stringify(target)}] ${problem}`);
    memos[target] = { ...(memo as ContainerMemo) };
  }
  return memos;
}

/** `lock`'s field with `memos` for `targets` (an empty memo, or a target no install holds, drops out), the others kept; undefined when none is left. */
export function withContainerMemos(lock: LockFile, targets: readonly string[], memos: Readonly<Record<string, ContainerMemo>>): Record<string, ContainerMemo> | undefined {
  const field = lock[CONTAINERS_FIELD];
  const all: Record<string, ContainerMemo> = field !== null && typeof field === 'object' && !Array.isArray(field) ? { ...(field as Record<string, ContainerMemo>) } : {};
  for (const target of targets) {
    const memo = memos[target];
    if (memo === undefined || Object.keys(memo).length === 0) delete all[target];
    else all[target] = memo;
  }
  const sorted = Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.length === 0 ? undefined : Object.fromEntries(sorted);
}
