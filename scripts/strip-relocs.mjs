// Removes the linker's `linking` and `reloc.*` custom sections from wasm files.
// `.cargo/config.toml` asks the linker to keep its relocations (wasm-split needs
// them to cut the app's module); wasm-split's pieces come out without them, but a
// module that is not cut (the model checker's worker module) would ship them:
// about two thirds of its bytes, which neither wasm-bindgen nor wasm-opt drops.
// Usage: node scripts/strip-relocs.mjs file.wasm...
import { readFileSync, writeFileSync } from 'node:fs';

function leb(b, i) {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, i];
}

for (const f of process.argv.slice(2)) {
  const b = readFileSync(f);
  if (b.readUInt32LE(0) !== 0x6d736100) throw new Error(`${f}: not a wasm module`);
  const keep = [b.subarray(0, 8)];
  let i = 8, dropped = 0;
  while (i < b.length) {
    const start = i;
    const id = b[i++];
    const [size, body] = leb(b, i);
    const end = body + size;
    if (end > b.length) throw new Error(`${f}: section at ${start} runs past the end`);
    let name = null;
    if (id === 0) { const [n, at] = leb(b, body); name = b.subarray(at, at + n).toString(); }
    if (name === 'linking' || name?.startsWith('reloc.')) dropped += end - start;
    else keep.push(b.subarray(start, end));
    i = end;
  }
  writeFileSync(f, Buffer.concat(keep));
  console.log(`${f}: ${dropped} bytes of linker sections removed`);
}
