// Builds the consumer package's one file, dist/loadout.mjs, from the repository's source with
// the bundler the builder uses (lib/tree/cli-package/bundle.js, compiled by `npm run build`
// first). Without esbuild (an install without devDependencies) it says so and does nothing.
import { mkdir, writeFile } from 'node:fs/promises';
import { Buffer } from 'node:buffer';
import { dirname } from 'node:path';
import { bundleConsumerCli, CLI_BUNDLE_PATH, readCliPackageJson } from '../../lib/tree/cli-package/bundle.js';

const pkg = await readCliPackageJson();
const bundled = await bundleConsumerCli(pkg.version);
if (bundled === undefined) {
  console.error('packages/cli: esbuild is not installed (devDependencies); dist/loadout.mjs was not built');
} else {
  await mkdir(dirname(CLI_BUNDLE_PATH), { recursive: true });
  await writeFile(CLI_BUNDLE_PATH, bundled.text, { mode: 0o755 });
  console.error(`packages/cli: wrote ${CLI_BUNDLE_PATH} (${Buffer.byteLength(bundled.text)} bytes)`);
}
