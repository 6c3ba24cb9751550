/**
 * The `skill://` URIs of the catalogue's skills (SEP-2640, "Resource Mapping":
 * `skill://<skill-path>/<file-path>`, the last segment of the skill path being the skill's
 * name, earlier segments a server-chosen prefix "by domain, team, version, or any other axis"):
 *
 * - latest version: `skill://<loadout-id>/<skill>/<file-path>`;
 * - pinned version: `skill://<loadout-id>/<version>/<skill>/<file-path>`, `version` being
 *   MAJOR.MINOR.PATCH.
 *
 * The two never collide: a skill name is a slug (`^[a-z0-9]+(?:-[a-z0-9]+)*$`), which has no
 * dot, and a version always has two. `skill://<loadout-id>@<version>/…` was not chosen: per
 * RFC 3986 section 3.2 the `@` makes `<loadout-id>` the userinfo and `<version>` the host,
 * and SEP-2640 asks the first segment to be a valid `reg-name`.
 *
 * A directory (SEP-2640, "Directory resources") is the same without the file path and with
 * no trailing slash: `skill://<loadout-id>/<skill>`, `skill://<loadout-id>/<skill>/references`,
 * and above the skills `skill://<loadout-id>` and `skill://<loadout-id>/<version>`.
 * File-path segments are percent-encoded one by one, so `/` stays a separator.
 */
import { SLUG_PATTERN, VERSION_PATTERN } from '../catalogue/vocabulary.js';

/** The URI scheme (SEP-2640: servers SHOULD use `skill://`). */
export const SKILL_SCHEME = 'skill://';

/** A place in the skill namespace: a loadout, optionally a version, optionally a skill and a path inside it. */
export interface SkillAddress {
  loadout: string;
  /** MAJOR.MINOR.PATCH, or undefined for the latest version. */
  version: string | undefined;
  /** The skill folder name, or undefined for the loadout's (or version's) level. */
  skill: string | undefined;
  /** The path inside the skill folder, `/`-separated, decoded; empty for the skill's root. */
  rel: string;
}

const encodePath = (rel: string): string => rel.split('/').map(encodeURIComponent).join('/');

/** The URI of a place (file or directory): `skill://<loadout>[/<version>][/<skill>[/<rel>]]`. Pure. */
export function formatSkillUri(address: SkillAddress): string {
  let uri = `${SKILL_SCHEME}${address.loadout}`;
  if (address.version !== undefined) uri += `/${address.version}`;
  if (address.skill !== undefined) uri += `/${address.skill}`;
  if (address.skill !== undefined && address.rel !== '') uri += `/${encodePath(address.rel)}`;
  return uri;
}

/** `skill://<loadout>[/<version>]/<skill>/<rel>` of a file. Pure. */
export const skillFileUri = (loadout: string, version: string | undefined, skill: string, rel: string): string => formatSkillUri({ loadout, version, skill, rel });

/**
 * Reads a `skill://` URI, or returns undefined when it is not one of the forms above: another
 * scheme, a query or fragment, an empty segment (so no trailing slash), a segment that is `.`
 * or `..` or does not decode, a loadout or skill that is not a slug. Percent-encoding is
 * undone segment by segment, so `skill://a/b/x%20y.md` and `skill://a/b/x y.md` are one
 * place ({@link formatSkillUri} gives the canonical spelling). Pure.
 */
export function parseSkillUri(uri: string): SkillAddress | undefined {
  if (!uri.startsWith(SKILL_SCHEME) || /[?#]/u.test(uri)) return undefined;
  const segments: string[] = [];
  for (const raw of uri.slice(SKILL_SCHEME.length).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\u0000]/u.test(segment)) return undefined;
    segments.push(segment);
  }
  const [loadout, ...rest] = segments;
  if (loadout === undefined || !SLUG_PATTERN.test(loadout)) return undefined;
  const version = rest[0] !== undefined && VERSION_PATTERN.test(rest[0]) ? rest.shift() : undefined;
  const skill = rest.shift();
  if (skill !== undefined && !SLUG_PATTERN.test(skill)) return undefined;
  return { loadout, version, skill, rel: rest.join('/') };
}
