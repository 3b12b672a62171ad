// Removes the linker's `linking` and `reloc.*` custom sections from wasm files.
// `.cargo/config.toml` asks the linker to keep its relocations (wasm-split needs
// them to cut the app's module); wasm-split's pieces come out without them, but a
// module that is not cut (the model checker's worker module) would ship them:
// about two thirds of its bytes, which neither wasm-bindgen nor wasm-opt drops.
// Usage: node scripts/strip-relocs.mjs file.wasm...
import { readFileSync, writeFileSync } from 'node:fs';
import { leb, sections } from './wasm-sections.mjs';

for (const f of process.argv.slice(2)) {
  const b = readFileSync(f);
  const keep = [b.subarray(0, 8)];
  let dropped = 0;
  for (const { id, body, raw } of sections(b, f)) {
    let name = null;
    if (id === 0) { const [n, at] = leb(body, 0); name = body.subarray(at, at + n).toString(); }
    if (name === 'linking' || name?.startsWith('reloc.')) dropped += raw.length;
    else keep.push(raw);
  }
  writeFileSync(f, Buffer.concat(keep));
  console.log(`${f}: ${dropped} bytes of linker sections removed`);
}
