/**
 * What the build's worker threads do (pool.ts; docs/architecture.md: the loadouts are read,
 * checked, rendered and written on every core, not on the main thread alone): each task is one
 * loadout read, checked and written as an entry of the store (loadout-task.ts, store.ts), or a
 * slice of the loadouts linked into a tree. Tasks take and give plain data (git is read on the main
 * thread, history.ts), and write with synchronous calls (tree-files.ts), so nothing but results
 * crosses between threads.
 */
import { workerData } from 'piscina';
import { isMainThread } from 'node:worker_threads';
import { adoptCheckpointMemory } from '../write/crash-points.js';
import type { LoadoutOutcome, LoadoutTask } from './loadout-task.js';
import { copyEntryLinks, linkEntry } from '../write/store.js';
import { TreeFiles } from '../write/tree-files.js';
import { deleteTrashNow } from '../write/trash.js';

if (!isMainThread) adoptCheckpointMemory((workerData as { counter: SharedArrayBuffer }).counter);

// The checks, renderers and compression are loaded by the first task that needs them (a
// 'prepare' task, which pool.ts sends once a build knows it has loadouts to read), not as the
// thread starts: linking a tree needs none of them.
let loadoutTask: Promise<typeof import('./loadout-task.js')> | undefined;
const loadoutTaskModule = (): Promise<typeof import('./loadout-task.js')> => (loadoutTask ??= import('./loadout-task.js'));

/**
 * Loadouts to link into the tree `tree` from their entries in `store`, or with `from`, as the tree
 * at `from` holds them (a copy of that tree by hard links, store.ts `copyEntryLinks`).
 */
export interface LinkTask {
  tree: string;
  store: string;
  entries: { id: string; name: string }[];
  from?: string;
}

/** A task of the pool, by kind: `trash` deletes a trash folder of the store (trash.ts `deleteTrashNow`). */
export type WorkerTask = ({ kind: 'loadout' } & LoadoutTask) | { kind: 'prepare' } | ({ kind: 'link' } & LinkTask) | { kind: 'trash'; folder: string };

/** Runs one task (the pool's entry point; pool.ts gives each its type). */
export default async function runTask(task: WorkerTask): Promise<LoadoutOutcome | number | undefined> {
  switch (task.kind) {
    case 'loadout':
      return (await loadoutTaskModule()).buildLoadout(task);
    case 'prepare':
      return (await loadoutTaskModule()).prepareLoadoutTask();
    case 'link':
      return linkEntries(task);
    case 'trash':
      deleteTrashNow(task.folder);
      return undefined;
  }
}

/** Links each of `task.entries` into the tree (store.ts). @returns how many. */
export function linkEntries(task: LinkTask): number {
  const files = new TreeFiles(task.tree);
  const { from } = task;
  for (const { id, name } of task.entries) {
    if (from === undefined) linkEntry(files, task.store, id, name);
    else copyEntryLinks(files, from, id);
  }
  return task.entries.length;
}
