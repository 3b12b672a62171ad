// Drops the web-streams adapters that Leptos's `csr` feature brings in
// (server_fn's "browser" feature → wasm-streams: `IntoUnderlyingSource`,
// `IntoUnderlyingSink`, `IntoUnderlyingByteSource`). They are
// `#[wasm_bindgen]` exports, so the linker keeps them and wasm-bindgen writes
// a class for each, though the page has no server functions and never calls
// them. Run after wasm-bindgen and before wasm-opt, which then drops their
// code (~5 KB before optimization, about 1.5 KB gzip of the first load with
// the classes).
//
// Usage: node scripts/drop-exports.mjs module_bg.wasm glue.js
// Fails if it finds nothing to drop or leaves a trace behind — a newer
// wasm-bindgen or Leptos would then need this looked at again.
import { readFileSync, writeFileSync } from 'node:fs';
import { leb, uleb, name, sections, module_ } from './wasm-sections.mjs';

const DEAD = /^(__wbg_)?intounderlying(bytesource|sink|source)_/;
const [wasmPath, jsPath] = process.argv.slice(2);
if (!wasmPath || !jsPath) throw new Error('usage: drop-exports.mjs module_bg.wasm glue.js');

// The module: its export section without the adapters' entries.
const secs = sections(readFileSync(wasmPath), wasmPath);
const ex = secs.find((s) => s.id === 7);
if (!ex) throw new Error(`${wasmPath}: no export section`);
let [n, i] = leb(ex.body, 0);
const kept = [];
let dropped = 0;
for (let k = 0; k < n; k++) {
  const [len, at] = leb(ex.body, i);
  const nm = ex.body.subarray(at, at + len).toString();
  const kind = ex.body[at + len];
  const [index, next] = leb(ex.body, at + len + 1);
  i = next;
  if (DEAD.test(nm)) dropped++;
  else kept.push(Buffer.concat([name(nm), Buffer.from([kind]), uleb(index)]));
}
if (!dropped) throw new Error(`${wasmPath}: none of the web-streams adapters' exports found`);
ex.body = Buffer.concat([uleb(kept.length), ...kept]);
writeFileSync(wasmPath, module_(secs));

// The glue: the three classes, their `Symbol.dispose` lines and their
// finalization registries, as wasm-bindgen writes them (unminified).
let js = readFileSync(jsPath, 'utf8');
const before = js.length;
js = js
  .replace(/^export class IntoUnderlying\w+ \{\n[\s\S]*?^\}\n/gm, '')
  .replace(/^if \(Symbol\.dispose\) IntoUnderlying\w+\.prototype.*\n/gm, '')
  .replace(/^const IntoUnderlying\w+Finalization = [\s\S]*?;\n/gm, '');
if (/intounderlying/i.test(js)) throw new Error(`${jsPath}: a web-streams adapter is left in the glue`);
writeFileSync(jsPath, js);
console.log(`dropped ${dropped} web-streams exports and ${before - js.length} bytes of glue`);
