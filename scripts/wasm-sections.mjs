// A WebAssembly module's sections, read and written: as much of the binary
// format as the build's scripts need (strip-relocs.mjs, merge-chunks.mjs, drop-exports.mjs).

/** An unsigned LEB128 at `i` of `b`: [value, the index after it]. */
export function leb(b, i) {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, i];
}

/** `n` as an unsigned LEB128. */
export function uleb(n) {
  const out = [];
  do { let x = n % 128; n = Math.floor(n / 128); if (n) x |= 0x80; out.push(x); } while (n);
  return Buffer.from(out);
}

/** A name as the format writes it: its length in bytes, then UTF-8. */
export const name = (s) => Buffer.concat([uleb(Buffer.byteLength(s)), Buffer.from(s)]);

/**
 * The sections of module `b` (`what` names it in errors), in order: each
 * its id, its body, and its bytes as they stand (id and size included).
 */
export function sections(b, what = 'module') {
  if (b.length < 8 || b.readUInt32LE(0) !== 0x6d736100) throw new Error(`${what}: not a wasm module`);
  const out = [];
  for (let i = 8; i < b.length;) {
    const start = i;
    const id = b[i];
    const [size, body] = leb(b, i + 1);
    const end = body + size;
    if (end > b.length) throw new Error(`${what}: section at ${start} runs past the end`);
    out.push({ id, body: b.subarray(body, end), raw: b.subarray(start, end) });
    i = end;
  }
  return out;
}

/** A module (version 1) of these sections. */
export const module_ = (secs) => Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
  ...secs.flatMap((s) => [Buffer.from([s.id]), uleb(s.body.length), s.body])]);
