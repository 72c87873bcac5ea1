// Bundles src/main.jsx into ../../internal/graphiql/assets (graphiql.js,
// graphiql.css), minified, with every font inlined: the page makes no request
// beyond its own origin. Run with: npm ci && npm run build
import * as esbuild from 'esbuild';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, '..', '..', 'internal', 'graphiql', 'assets');

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

await esbuild.build({
  entryPoints: { graphiql: join(here, 'src', 'main.jsx') },
  outdir,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"', global: 'window' },
  loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
  legalComments: 'linked',
  logLevel: 'warning',
  charset: 'utf8',
});

for (const f of readdirSync(outdir).sort()) {
  console.log(`${f}\t${statSync(join(outdir, f)).size} bytes`);
}
