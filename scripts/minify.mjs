// Minifies every JavaScript file of a built folder in place (terser: compress
// and mangle, as ES modules), before the brotli copies are written. The glue
// wasm-bindgen and wasm-split write is readable and long (paxos-island.js
// 59 KB, __wasm_split.js 40 KB); minified, the first load is ~4 KB gzip
// smaller (issue 15). Exported names and property names are kept: the loader,
// the split chunks and the module's imports find each other by them.
// Usage: node scripts/minify.mjs dist
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from '../tests/e2e/node_modules/terser/main.js';

const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
let before = 0, after = 0, n = 0;
for (const f of walk(process.argv[2] ?? 'dist').filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(f, 'utf8');
  const out = await minify(code, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  writeFileSync(f, out.code);
  before += code.length; after += out.code.length; n++;
}
console.log(`minified ${n} JavaScript files: ${before} -> ${after} bytes`);
