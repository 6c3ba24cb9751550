/**
 * The consumer CLI's bundle: `src/cli/consumer-main.ts` and everything it imports, bundled by
 * esbuild into one ES module with no dependencies (DESIGN.md section 2, distribution), the
 * file `packages/cli/dist/loadout.mjs` that the consumer package's `bin` runs. The same
 * source always gives the same bytes: no time, no absolute path, minified.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this module's place (`src/tree/cli-package/` or `lib/tree/cli-package/`). */
export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The consumer package's folder. */
export const CLI_PACKAGE_DIR = join(REPOSITORY_ROOT, 'packages', 'cli');
/** Where the package's bundle is written (git-ignored). */
export const CLI_BUNDLE_PATH = join(CLI_PACKAGE_DIR, 'dist', 'loadout.mjs');

/**
 * The banner: the shebang of a `bin`, and `require` for the CommonJS modules in the bundle
 * (commander calls `require('node:events')`, which an ES module bundle has no other way to do).
 */
const BANNER = "#!/usr/bin/env node\nimport { createRequire as __loadoutCreateRequire } from 'node:module';\nconst require = __loadoutCreateRequire(import.meta.url);";

/**
 * Optional peers of bundled libraries that the consumer CLI never uses and that are not
 * installed: `@cyclonedx/cyclonedx-library` (`loadout sbom`) requires `xmlbuilder2` and
 * `libxmljs2` for its XML serialiser and validator, inside a `try` that reports them missing only
 * when XML is asked for (its `_optPlug.node`). The bundle gives each a module that throws, so the
 * bundle imports nothing but Node's own modules (test/import-graph.test.ts).
 */
// esbuild reads a plugin's filter as a Go regular expression, which has no `u` flag.
const ABSENT_PEERS = /^(?:xmlbuilder2|libxmljs2)$/;

/** The esbuild namespace of the modules {@link absentPeers} makes up (none is a file). */
const ABSENT_NAMESPACE = 'loadout-absent';

/** The esbuild plugin that resolves {@link ABSENT_PEERS} to a module that throws when required. */
const absentPeers: import('esbuild').Plugin = {
  name: 'loadout-absent-peers',
  setup(build) {
    build.onResolve({ filter: ABSENT_PEERS }, (args) => ({ path: args.path, namespace: ABSENT_NAMESPACE }));
    build.onLoad({ filter: /.*/, namespace: ABSENT_NAMESPACE }, (args) => ({ contents: `throw new Error(${JSON.stringify(`${args.path} is not in the loadout CLI's bundle`)});`, loader: 'js' }));
  },
};

/** The name esbuild gives the bundle's entry, which it reads from its input, not from a file (left out of the inputs returned). */
const ENTRY_NAME = 'consumer-entry.ts';

/** The consumer package's `package.json` fields this module reads. */
export interface CliPackageJson {
  name: string;
  version: string;
}

/** Reads `packages/cli/package.json`. @throws the file system's error */
export async function readCliPackageJson(): Promise<CliPackageJson & Record<string, unknown>> {
  return JSON.parse(await readFile(join(CLI_PACKAGE_DIR, 'package.json'), 'utf8')) as CliPackageJson & Record<string, unknown>;
}

/**
 * Bundles the consumer CLI with esbuild (a devDependency), with `metafile` so that callers can
 * walk its import graph.
 * @returns the bundle's text, the files (repository-relative) it was made from and its external imports; undefined when esbuild is not installed
 *   (an install without devDependencies)
 * @throws esbuild's error when the source does not bundle
 */
export async function bundleConsumerCli(version: string): Promise<{ text: string; inputs: string[]; externals: string[] } | undefined> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const result = await esbuild.build({
    stdin: {
      contents: "import { consumerMain } from './src/cli/consumer-main.ts';\nprocess.exitCode = await consumerMain(process.argv);\n",
      resolveDir: REPOSITORY_ROOT,
      sourcefile: ENTRY_NAME,
      loader: 'ts',
    },
    absWorkingDir: REPOSITORY_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    banner: { js: BANNER },
    define: { LOADOUT_CLI_VERSION: JSON.stringify(version) },
    // jsonc-parser's `main` is a UMD module whose `require` esbuild cannot follow; its ES module build bundles.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    plugins: [absentPeers],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text ?? '';
  const externals = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) for (const imp of input.imports) if (imp.external) externals.add(imp.path);
  // Inputs read from disk only: the entry comes from stdin and an absent peer from the plugin's namespace (`loadout-absent:…`).
  const inputs = Object.keys(result.metafile.inputs).filter((input) => input !== ENTRY_NAME && !input.startsWith(`${ABSENT_NAMESPACE}:`));
  return { text, inputs, externals: [...externals].sort() };
}
