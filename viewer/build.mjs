// Bundles the viewer (src/main.js and three.js) into one minified script that
// `pegsim replay` inlines into each page, so the page opens offline from a file.
// Usage: node build.mjs [--out FILE]   (default dist/pegsim-viewer.js)
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const i = process.argv.indexOf('--out');
const out = i > 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : path.join(here, 'dist', 'pegsim-viewer.js');

try {
  await build({
    entryPoints: [path.join(here, 'src', 'main.js')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    legalComments: 'inline', // keeps three.js's licence notice in the bundle
    outfile: out,
    logLevel: 'warning',
  });
  console.log(`viewer bundle: ${out}`);
} catch (e) {
  console.error(`viewer bundle failed: ${e.message}`);
  process.exit(1);
}
