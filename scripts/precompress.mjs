// Writes `<file>.br` (brotli, quality 11) beside every page file in a folder
// (wasm, JavaScript, CSS, HTML, SVG), for static hosts that serve precompressed
// files. Usage: node scripts/precompress.mjs dist
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
let n = 0;
for (const f of walk(process.argv[2] ?? 'dist').filter((f) => /\.(wasm|js|css|html|svg)$/.test(f))) {
  const data = readFileSync(f);
  writeFileSync(`${f}.br`, brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  }));
  n++;
}
console.log(`precompressed ${n} files (brotli 11)`);
