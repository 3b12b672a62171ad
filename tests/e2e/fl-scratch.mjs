// The browser benchmarks (figures, not pass/fail): the first load and the
// total of all parts (gzip and brotli), script
// time per animation frame with 9 legislators and ~200 messengers in flight,
// and the time to seek anywhere in a run of ~100,000 events.
//   scripts/build-web.sh && node tests/e2e/bench.mjs
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants as zc } from 'node:zlib';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { start, open, ROOT, ARTIFACTS, playAndPause } from './lib.mjs';
import { serve } from './serve.mjs';

const dist = join(ROOT, 'dist');
const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
const br = (f) => brotliCompressSync(readFileSync(join(dist, f)), { params: { [zc.BROTLI_PARAM_QUALITY]: 11 } }).length;
const raw = (f) => readFileSync(join(dist, f)).length;
const size = (f) => ({ bytes: raw(f), gzip: gz(f), brotli: br(f) });
const sum = (list, k) => list.reduce((s, x) => s + x[k], 0);
// Every file of the page (the code and its styles: what a visitor may fetch).
const walk = (d) => readdirSync(join(dist, d)).flatMap((f) => statSync(join(dist, d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]);
const allFiles = walk('').filter((f) => /\.(wasm|js|css|html)$/.test(f));
const r = (x) => Math.round(x * 100) / 100;
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const events = (f) => Number(spawnSync('cargo', ['run', '--release', '--quiet', '--bin', 'paxos-island', '--', 'run', '--scenario', f],
  { cwd: ROOT, encoding: 'utf8' }).stdout.match(/events\s+(\d+)/)[1]);

const ctx = await start();

// The first load: every file the page fetched before the parliament was
// interactive — requested before its Play button was in the page (its
// handler comes with it) — in an English browser and in a Japanese one.
// Then Play is pressed (it must answer) and one quiet second passes: what
// was fetched after the Play button appeared came in the background after
// the first paint (the side column's part) and is counted apart.
async function firstLoad(locale) {
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 900 }, locale });
  const p = await context.newPage();
  await p.addInitScript(() => {
    window.__playAt = null;
    const look = () => { if (window.__playAt == null && document.querySelector('[data-testid=play]')) window.__playAt = performance.now(); };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
  });
  await p.goto(ctx.url);
  await playAndPause(p);
  await p.waitForTimeout(1000);
  const { playAt, res } = await p.evaluate(() => ({
    playAt: window.__playAt,
    res: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]),
  }));
  await context.close();
  const local = (u) => { const x = new URL(u); return x.origin + '/' === ctx.url ? decodeURIComponent(x.pathname.slice(1)) || 'index.html' : null; };
  const first = new Set(['index.html']), background = new Set();
  for (const [u, t] of res) { const f = local(u); if (f) (t <= playAt ? first : background).add(f); }
  for (const f of first) background.delete(f);
  return { first, background };
}
const loadEn = await firstLoad('en-US');
const loadJa = await firstLoad('ja-JP');
const firstFetched = loadEn.first;
const firstFiles = [...firstFetched].filter((f) => allFiles.includes(f)).sort();
const sizes = Object.fromEntries(firstFiles.map((f) => [f, size(f)]));
const shipped = sum(Object.values(sizes), 'gzip');
const shippedBr = sum(Object.values(sizes), 'brotli');
const firstFilesJa = [...loadJa.first].filter((f) => allFiles.includes(f)).sort();
const shippedJa = sum(firstFilesJa.map(size), 'gzip');
const shippedJaBr = sum(firstFilesJa.map(size), 'brotli');
console.log('first load', shipped, 'ja', shippedJa, 'br', shippedBr); await ctx.browser.close(); ctx.server.close();
