import { build } from 'esbuild';
const entry = process.argv[2];
const r = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, packages: 'external', logLevel: 'silent' });
const inputs = Object.keys(r.metafile.inputs);
const ext = new Set();
for (const [f, i] of Object.entries(r.metafile.inputs)) for (const imp of i.imports) if (imp.external) ext.add(imp.path);
console.log(inputs.join('\n')); console.log('EXTERNAL', [...ext].join(' '));
