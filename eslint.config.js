// ESLint flat config: the recommended JavaScript and typescript-eslint rules over src/, test/ and bench/,
// and over src/ eslint-plugin-regexp's rules against regular expressions whose time grows faster than
// their input (catastrophic or polynomial backtracking, quadratic moves): text under review must not
// stall the checks (DESIGN.md section 6, "Every rule runs in linear time").
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['lib/', 'dist/', '**/dist/', 'node_modules/', 'coverage/', 'data/', 'test/fixtures/', 'test/artifacts/', 'schema/loadout.validate.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain Node scripts (bench/*.mjs): Node's globals.
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', globalThis: 'readonly', setTimeout: 'readonly' } },
  },
  {
    // The consumer CLI's rooms (DESIGN.md section 3): the published format, the installer, the
    // layout tables and search never import the verifier, the builder, storage, the bot,
    // publishing, the server or a native or authoring-only package. Types may cross (erased).
    // test/import-graph.test.ts checks the bundle's whole import graph too.
    files: ['src/tree-format/**/*.ts', 'src/install/**/*.ts', 'src/layout/**/*.ts', 'src/search/**/*.ts', 'src/cli/consumer-*.ts', 'src/cli/run-program.ts', 'src/cli/commands/{install,update,uninstall,status,outdated,search}.ts'],
    ignores: ['src/search/route.ts', 'src/search/index-file.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/verify/**', '**/tree/**', '**/storage/**', '**/bot/**', '**/publish/**', '**/server/**', '**/submissions/**'], allowTypeImports: true, message: 'The consumer CLI must not reach the verifier, the builder, storage, the bot, publish, the server or submissions: read the published format from src/tree-format/.' },
          { group: ['**/catalogue/front-matter.js', '**/catalogue/yaml-document.js', '**/catalogue/schema.js'], allowTypeImports: true, message: 'These load js-yaml or ajv: the consumer rooms read front matter with catalogue/front-matter-data.js.' },
          { group: ['better-sqlite3', 'pg', 'ajv', 'ajv/*', 'ajv-formats', '@secretlint/*', 'js-yaml', 'spdx-license-ids', 'spdx-license-ids/*'], allowTypeImports: true, message: 'A native or authoring-only package has no place in the consumer CLI\'s bundle.' },
        ],
      }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.mjs'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
);
