/**
 * Reading a command's flags once commander has parsed them (STYLE.md: `src/cli/` turns
 * arguments into options): switches become booleans, so an action hands its flags on as they
 * are instead of testing each switch and spreading each optional value in only when given.
 * Loads nothing but commander's types, so the consumer package's commands can use it.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { parseConsentKinds, type ConsentKind } from '../capabilities/consent.js';
import type { Command } from 'commander';

/**
 * The flags of `command` once commander has parsed them, as `F`: every switch (a flag without a
 * value, such as `--json`) is a boolean, false when not given; a flag with a value is its string
 * (or its list, when repeatable) or its declared default, and undefined when not given and
 * without default. `F` is the caller's statement of the flags `command` declares, as with
 * commander's own `opts<T>()`.
 */
export function flagsOf<F extends object>(command: Command): F {
  const switches = command.options.filter((option) => option.isBoolean()).map((option) => [option.attributeName(), false] as const);
  return { ...Object.fromEntries(switches), ...command.opts() } as F;
}

/** The kinds of `list` (capabilities/consent.ts `parseConsentKinds`). @throws LoadoutError `usage` naming `where` */
export function consentKindsOf(list: string | undefined, where: string): ConsentKind[] | undefined {
  try {
    return parseConsentKinds(list, where);
  } catch (error) {
    throw new LoadoutError('usage', (error as Error).message);
  }
}

