// Minifies every JavaScript and CSS file of a built folder in place (terser:
// compress and mangle, as ES modules; csso without restructuring, so every
// rule stays where it was and the cascade is unchanged), before the brotli
// copies are written. The glue
// wasm-bindgen and wasm-split write is readable and long (paxos-island.js
// 59 KB, __wasm_split.js 40 KB); minified, the first load is ~4 KB gzip
// smaller (issue 15); the stylesheets ~0.8 KB each. Exported names and property names are kept: the loader,
// the split chunks and the module's imports find each other by them.
// Usage: node scripts/minify.mjs dist
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { minify } from '../tests/e2e/node_modules/terser/main.js';

const csso = createRequire(import.meta.url)('../tests/e2e/node_modules/csso');

const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
let before = 0, after = 0, n = 0;
for (const f of walk(process.argv[2] ?? 'dist').filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(f, 'utf8');
  const out = await minify(code, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  writeFileSync(f, out.code);
  before += code.length; after += out.code.length; n++;
}
for (const f of walk(process.argv[2] ?? 'dist').filter((f) => f.endsWith('.css'))) {
  const css = readFileSync(f, 'utf8');
  const out = csso.minify(css, { restructure: false }).css;
  writeFileSync(f, out);
  before += css.length; after += out.length; n++;
}
console.log(`minified ${n} JavaScript and CSS files: ${before} -> ${after} bytes`);
