// Bundles the page's client (page-client/) into dist/page/ with esbuild: one script, one
// stylesheet, one HTML file, nothing fetched at run time. `--report` prints the gzipped weight.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

let build;
try {
  ({ build } = await import('esbuild'));
} catch {
  // An install without dev dependencies keeps the bundle it came with (dist/page/ ships in the package).
  console.warn('build-page: esbuild is not installed; dist/page/ left as it is');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/page/`;
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [`${root}page-client/main.js`],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  outfile: `${out}app.js`,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(`${root}page-client/index.html`, `${out}index.html`);
copyFileSync(`${root}page-client/app.css`, `${out}app.css`);
if (process.argv.includes('--report')) {
  for (const f of ['app.js', 'app.css', 'index.html']) {
    const b = readFileSync(out + f);
    console.log(`${f}: ${(b.length / 1024).toFixed(1)} KB, ${(gzipSync(b).length / 1024).toFixed(1)} KB gzipped`);
  }
}
