// Minifies every JavaScript and CSS file of a built folder in place (and
// takes the comments out of its HTML), before the brotli copies are written
// (issue 15): terser compresses and mangles the JavaScript as ES modules —
// the glue wasm-bindgen and wasm-split write is readable and long
// (paxos-island.js 59 KB, __wasm_split.js 40 KB), ~4 KB gzip of the first
// load — keeping exported and property names, by which the loader, the split
// chunks and the module's imports find each other; csso
// minifies the stylesheets without restructuring, so every rule stays where it
// was and the cascade is unchanged (~0.8 KB gzip each).
// Usage: node scripts/minify.mjs dist
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { minify } from '../tests/e2e/node_modules/terser/main.js';

const csso = createRequire(import.meta.url)('../tests/e2e/node_modules/csso');

const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const minified = {
  js: async (code) => (await minify(code, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } })).code,
  css: async (css) => csso.minify(css, { restructure: false }).css,
  // The page itself: its comments (notes for whoever reads the source) go;
  // empty ones stay (in the first frame's picture they keep two pieces of
  // text apart, as the app has them: scripts/first-frame-copy.mjs).
  html: async (html) => html.replace(/<!--(?!-->)[^]*?-->/g, ''),
};
let before = 0, after = 0, n = 0;
for (const f of walk(process.argv[2] ?? 'dist')) {
  const how = minified[f.split('.').pop()];
  if (!how) continue;
  const text = readFileSync(f, 'utf8');
  const out = await how(text);
  writeFileSync(f, out);
  before += text.length; after += out.length; n++;
}
console.log(`minified ${n} JavaScript, CSS and HTML files: ${before} -> ${after} bytes`);
