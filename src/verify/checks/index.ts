/** The ten checks in the order they run (DESIGN.md section 4). */
import type { Check } from '../check.js';
import { adapters } from './adapters.js';
import { installPaths } from './install-paths.js';
import { licence } from './licence.js';
import { listing } from './listing.js';
import { mcp } from './mcp.js';
import { parse } from './parse.js';
import { references } from './references.js';
import { safety } from './safety.js';
import { size } from './size.js';
import { starterBuild } from './starter-build.js';

/** Every check, ordered as the spec lists the ids. */
export const CHECKS: readonly Check[] = [listing, parse, adapters, installPaths, mcp, safety, references, size, licence, starterBuild];
