// Types of the plain-JavaScript ESLint rule beside it (eslint.config.js imports it untranspiled).
import type { ESLint, Rule } from 'eslint';

/** The rule `no-rescan` (see eslint-rescan-rule.js). */
export declare const noRescan: Rule.RuleModule;
/** The plugin that holds it, as eslint.config.js names it: `loadout`. */
declare const plugin: ESLint.Plugin;
export default plugin;
