// Merge wasm-split's small shared chunks into one file (issue 15).
//
//   node scripts/merge-chunks.mjs DIST [BYTES]
//
// wasm-split puts every function in the chunk of the exact set of parts that
// reach it: with eleven split points that made ~125 chunks, 97 of them under
// 3 KB, and a part fetched 30–78 files when first shown. Each small file
// also pays gzip's and WebAssembly's fixed costs and compresses without its
// neighbours' words. Here every chunk under BYTES (default 3000) becomes
// one `chunk_common.wasm`, and the loader (`__wasm_split.js`) has each of
// their names stand for it: a part now fetches a few files, the common one
// at most once.
//
// Why this is safe: a chunk defines functions and data only — it imports the
// app's memory, its function table and the stack pointer, writes its
// functions into the table at fixed slots (active element segments) and its
// constants into memory at fixed addresses (active data segments), and calls
// everything else through the table. Two chunks never claim the same slot or
// address, so one module holding both does exactly what loading both did.
//
// How: binaryen's wasm-merge joins modules but gives each its own imported
// memory (two memories); so a small "hub" module imports the three shared
// things once and exports them, each chunk is rewritten to import them from
// the hub, wasm-merge resolves those imports to the hub's, and the hub's
// exports are dropped from the result.
import { readFileSync, writeFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { leb, uleb, name, sections, module_ } from './wasm-sections.mjs';

const [dist, limitArg] = process.argv.slice(2);
if (!dist) throw new Error('usage: node scripts/merge-chunks.mjs DIST [BYTES]');
const limit = Number(limitArg ?? 3000);
const ROOT = join(import.meta.dirname, '..');
const bin = (tool) => join(ROOT, 'tests/e2e/node_modules/.bin', tool);
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types'];
const SHARED = '__wasm_split';

// --- imports, as much of them as is needed ---
function limits(b, i) {
  const flag = b[i++];
  [, i] = leb(b, i);
  if (flag & 1) [, i] = leb(b, i);
  return i;
}
// An import section's entries: module, field, kind, and the kind's raw
// description (none without the section).
function imports(body = Buffer.from([0])) {
  let [n, i] = leb(body, 0);
  const out = [];
  const str = () => { const [len, j] = leb(body, i); const s = body.subarray(j, j + len).toString(); i = j + len; return s; };
  while (n--) {
    const mod = str(), field = str(), kind = body[i++], start = i;
    if (kind === 0) [, i] = leb(body, i);
    else if (kind === 1) i = limits(body, i + 1);
    else if (kind === 2) i = limits(body, i);
    else if (kind === 3) i += 2;
    else throw new Error(`import kind ${kind}`);
    out.push({ mod, field, kind, desc: body.subarray(start, i) });
  }
  return out;
}
const importSection = (list) => ({ id: 2, body: Buffer.concat([uleb(list.length),
  ...list.flatMap((m) => [name(m.mod), name(m.field), Buffer.from([m.kind]), m.desc])]) });

// --- which chunks ---
const chunks = readdirSync(dist).filter((f) => /^chunk_\d+\.wasm$/.test(f))
  .map((f) => ({ f, b: readFileSync(join(dist, f)) }))
  .filter(({ b }) => b.length < limit)
  .map((c) => { const secs = sections(c.b, c.f); return { ...c, secs, imports: imports(secs.find((s) => s.id === 2)?.body) }; })
  .filter((c) => c.secs.every((s) => ![7, 8].includes(s.id)) // no exports, no start function
    && c.imports.every((m) => m.mod === SHARED && m.kind !== 0));
if (chunks.length < 2) {
  console.log(`merge-chunks: ${chunks.length} chunk(s) under ${limit} bytes; nothing to merge`);
  process.exit(0);
}

// --- the hub: the shared imports once, exported ---
const shared = new Map();
for (const c of chunks) {
  for (const m of c.imports) {
    const had = shared.get(m.field);
    if (had && (had.kind !== m.kind || !had.desc.equals(m.desc))) throw new Error(`${c.f}: ${m.field} differs`);
    shared.set(m.field, m);
  }
}
const hubImports = [...shared.values()];
const perKind = [0, 0, 0, 0];
const hubExports = hubImports.map((m) => Buffer.concat([name(m.field), Buffer.from([m.kind]), uleb(perKind[m.kind]++)]));
const hub = module_([importSection(hubImports), { id: 7, body: Buffer.concat([uleb(hubExports.length), ...hubExports]) }]);

const tmp = mkdtempSync(join(tmpdir(), 'merge-chunks-'));
try {
  writeFileSync(join(tmp, 'hub.wasm'), hub);
  const args = [join(tmp, 'hub.wasm'), 'hub'];
  chunks.forEach((c, k) => {
    const secs = c.secs.map((s) => (s.id === 2 ? importSection(c.imports.map((m) => ({ ...m, mod: 'hub' }))) : s));
    writeFileSync(join(tmp, `${k}.wasm`), module_(secs));
    args.push(join(tmp, `${k}.wasm`), `c${k}`);
  });
  const merged = join(tmp, 'merged.wasm');
  execFileSync(bin('wasm-merge'), [...args, ...FEATURES, '-o', merged], { stdio: 'inherit' });
  // The hub's exports go: nothing asks a chunk for anything.
  const out = sections(readFileSync(merged), merged).filter((s) => s.id !== 7);
  const left = imports(out.find((s) => s.id === 2).body);
  if (!left.every((m) => m.mod === SHARED)) throw new Error('merge-chunks: an import was not resolved');
  writeFileSync(merged, module_(out));
  execFileSync(bin('wasm-opt'), [merged, '-Oz', ...FEATURES, '--strip-producers', '--strip-target-features',
    '-o', join(dist, 'chunk_common.wasm')], { stdio: 'inherit' });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// --- the loader: each merged chunk's name stands for the common file ---
const loaderPath = join(dist, '__wasm_split.js');
let js = readFileSync(loaderPath, 'utf8');
const def = (n) => new RegExp(`const __chunk_${n} = makeLoad\\(\\(\\) => \\{[\\s\\S]*?\\n, \\[\\]\\);`);
let common;
for (const { f } of chunks) {
  const n = f.match(/\d+/)[0];
  const m = js.match(def(n));
  if (!m) throw new Error(`merge-chunks: no loader for ${f} in __wasm_split.js`);
  common ??= m[0].replace(`const __chunk_${n} =`, 'const __chunk_common =').replace(`./${f}`, './chunk_common.wasm');
  js = js.replace(m[0], `const __chunk_${n} = __chunk_common;`);
  rmSync(join(dist, f));
}
const first = js.search(/\/\*[^\n]*\*\/\nconst __chunk_/);
if (first < 0) throw new Error('merge-chunks: the loader has no chunk definitions');
js = `${js.slice(0, first)}${common}\n${js.slice(first)}`;
writeFileSync(loaderPath, js);
console.log(`merge-chunks: ${chunks.length} chunks under ${limit} bytes → chunk_common.wasm (${readFileSync(join(dist, 'chunk_common.wasm')).length} bytes)`);
