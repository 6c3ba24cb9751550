/**
 * The consumer commands' error catalogue (`install`, `update`, `uninstall`, `status`,
 * `outdated`, `search`): one entry per failure a script may want to tell apart, each with a
 * permanent name, a title, and a hint that says what to do, in the manner of Astro's error
 * reference (docs.astro.build/en/reference/error-reference/). The message, which says what
 * happened and where, is given where the error is thrown.
 *
 * A name is permanent: scripts match on it (`loadout install --json` prints
 * `{"error": {"code", "name", "message", "hint"}}`), so an entry is never renamed nor reused;
 * a new failure gets a new entry. `code` is the coarse class the exit code follows
 * (`catalogue/errors.ts`).
 */
import { LoadoutError, type LoadoutErrorCode } from '../catalogue/errors.js';
import type { PolicyViolation } from '../policy/policy.js';

/** One entry of the catalogue. */
export interface ConsumerErrorEntry {
  /** The coarse class (`LoadoutError.code`); `usage` exits 2, the others 1. */
  code: LoadoutErrorCode;
  /** One line naming the failure, for a reference page. */
  title: string;
  /** What to do about it. */
  hint: string;
}

/** The catalogue, by permanent name. */
export const CONSUMER_ERRORS = {
  /** A file's bytes differ from the sha256 its versions document publishes (DESIGN.md section 8). */
  HashMismatch: { code: 'invalid_content', title: 'A file does not match its published hash', hint: 'The catalogue or a proxy changed the file; do not install it. Report it to the catalogue\'s maintainers.' },
  /** A target the installer will not write: outside the agent's locations, through a link, or an agent's settings file. */
  UnsafeTarget: { code: 'invalid_content', title: 'An install target is not safe to write', hint: 'The catalogue, the lock or the project is not safe to install into; nothing was written.' },
  /** A file in the project has changes of yours that the install would overwrite. */
  Conflict: { code: 'invalid_content', title: 'A file in the project has changes of yours', hint: 'Keep your changes elsewhere, or pass --force to overwrite them.' },
  /** The catalogue's server could not be reached, or answered an error. */
  CatalogueUnreachable: { code: 'io', title: 'The catalogue cannot be reached', hint: 'Check --from (a base URL such as https://loadouts.example, or a built tree\'s folder) and your network.' },
  /** A response was larger than the versions document declares, or than a document may be. */
  ResponseTooLarge: { code: 'invalid_content', title: 'The catalogue sent more bytes than it declared', hint: 'The catalogue is broken or hostile; nothing was written.' },
  /** The catalogue has no loadout of this id. */
  UnknownLoadout: { code: 'not_found', title: 'The catalogue has no such loadout', hint: 'Check the id: `loadout search <words> --from <catalogue>` lists what there is.' },
  /** The catalogue has the loadout but not the version asked for. */
  UnknownVersion: { code: 'not_found', title: 'The loadout has no such version', hint: 'Pick one of the versions published, or leave --version out for the latest.' },
  /** A document of the catalogue is not of its form, or an address would leave the catalogue. */
  InvalidCatalogue: { code: 'invalid_content', title: 'The catalogue is broken or was tampered with', hint: 'Nothing was installed. Report it to the catalogue\'s maintainers.' },
  /** `--from` is neither a URL with a scheme nor a folder holding a built tree. */
  BadSource: { code: 'usage', title: '--from names no catalogue', hint: 'Pass a base URL with its scheme (http://127.0.0.1:8787) or the folder of a built tree (dist).' },
  /** Reserved for signing: the snapshot's signature does not verify. */
  BadSignature: { code: 'invalid_content', title: 'The catalogue\'s signature does not verify', hint: 'The catalogue was changed after it was signed; nothing was written.' },
  /** Reserved for signing: the snapshot is signed by a key the lock does not know. */
  UnknownKey: { code: 'invalid_content', title: 'The catalogue is signed by an unknown key', hint: 'If the catalogue rotated its key, check with its maintainers, then pass --trust-key.' },
  /** Reserved for signing: the snapshot is older than one already seen. */
  Rollback: { code: 'invalid_content', title: 'The catalogue went back to an older snapshot', hint: 'A mirror or proxy may serve stale content; nothing was written.' },
  /** Reserved for signing: the snapshot's expiry has passed. */
  Expired: { code: 'invalid_content', title: 'The catalogue\'s signed snapshot has expired', hint: 'The catalogue has not been rebuilt in time; ask its maintainers.' },
  /** `--require-signed` and the catalogue is not signed (docs/signing.md). */
  UnsignedCatalogue: { code: 'invalid_content', title: 'The catalogue is not signed', hint: 'Install from a signed catalogue, or leave out --require-signed; nothing was written.' },
  /** The journal an interrupted change left cannot be acted on (not a regular file, names what its change cannot have touched, or its recovery failed: `project/journal.ts`). */
  UnusableJournal: { code: 'invalid_content', title: 'The journal of an interrupted change cannot be used', hint: '`loadout recover --set-aside` moves it and its temporary files aside and says what it moved; then run the command again.' },
  /** The policy (`loadout-policy.yaml`, `--policy`, `LOADOUT_POLICY`; docs/policy.md) forbids what was asked: the message names each rule broken. */
  PolicyRefused: { code: 'invalid_content', title: 'The policy refuses it', hint: 'Nothing was written. Each line names the policy\'s rule: choose another loadout, version, agent or catalogue, or change the policy (docs/policy.md).' },
  /** The policy cannot be read: not found, not YAML, refused by its schema (with line and column), or its signature does not verify. */
  InvalidPolicy: { code: 'config', title: 'The policy cannot be used', hint: 'Fix the policy where the message says (`loadout policy check` checks it), or its signature and --policy-key.' },
  /** Installing, updating or adding a bundle would break a version range (issue 56): a member installed outside a bundle's range, or two bundles whose ranges for one loadout do not meet. The message names both constraints. */
  BundleConflict: { code: 'invalid_content', title: 'Version ranges do not meet', hint: 'Nothing was written. Install the bundles into different projects, move the installed loadout into the range, or uninstall one of them (docs/installing.md, "Bundles").' },
  /** `uninstall <id>` of a loadout an installed bundle brought, without `--force`: the message names the bundle. */
  BundleMember: { code: 'usage', title: 'The loadout belongs to an installed bundle', hint: 'Uninstall the bundle (`loadout uninstall <bundle>`), or pass --force to remove the loadout alone (the bundle then lacks it until `loadout install <bundle>` or `update`).' },
  /** `install --strict`: a tool, variable or MCP server the loadout's `requires` names is missing or out of range (issue 56, point 4). */
  RequirementsMissing: { code: 'invalid_content', title: 'What the loadout requires is missing', hint: 'Get what the message names (`loadout install` without --strict, or `loadout doctor`, says how), or install without --strict.' },
} as const satisfies Record<string, ConsumerErrorEntry>;

/** A permanent name of the catalogue. */
export type ConsumerErrorName = keyof typeof CONSUMER_ERRORS;

/** A `LoadoutError` from the catalogue: `name` is its permanent name, `title` its entry's. */
export class ConsumerError extends LoadoutError {
  override readonly name: ConsumerErrorName;
  readonly title: string;

  constructor(name: ConsumerErrorName, message: string, options: { hint?: string; cause?: unknown } = {}) {
    const entry: ConsumerErrorEntry = CONSUMER_ERRORS[name];
    super(entry.code, message, { hint: options.hint ?? entry.hint, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.name = name;
    this.title = entry.title;
  }
}

/**
 * A `PolicyRefused` error with the violations it names (`policy/policy.ts` `PolicyViolation`:
 * rule, loadout, agent, capability, message), which `--json` prints as `error.violations`.
 */
export class PolicyRefusal extends ConsumerError {
  readonly violations: readonly PolicyViolation[];

  constructor(message: string, violations: readonly PolicyViolation[]) {
    super('PolicyRefused', message);
    this.violations = violations;
  }
}

/**
 * The JSON form of any error a command ends with: `{error: {code, name, message, hint}}`, and
 * `violations` for a {@link PolicyRefusal}. A catalogue error gives its permanent name; another
 * `LoadoutError` `LoadoutError`; a bug `InternalError` (code `internal`). `hint` is null when
 * there is none.
 */
export function errorJson(error: unknown): { error: { code: string; name: string; message: string; hint: string | null; violations?: readonly PolicyViolation[] } } {
  if (error instanceof PolicyRefusal) return { error: { code: error.code, name: error.name, message: error.message, hint: error.hint ?? null, violations: error.violations } };
  if (error instanceof LoadoutError) return { error: { code: error.code, name: error.name, message: error.message, hint: error.hint ?? null } };
  return { error: { code: 'internal', name: 'InternalError', message: `internal error (a bug, please report it): ${(error as Error).message ?? String(error)}`, hint: null } };
}
