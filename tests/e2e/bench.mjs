// The browser benchmarks (figures, not pass/fail): shipped size, script
// time per animation frame with 9 legislators and ~200 messengers in flight,
// and the time to seek anywhere in a run of ~100,000 events.
//   scripts/build-web.sh && node tests/e2e/bench.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { start, open, ROOT, ARTIFACTS } from './lib.mjs';

const dist = join(ROOT, 'dist');
const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
const raw = (f) => readFileSync(join(dist, f)).length;
const files = ['paxos-island_bg.wasm', 'paxos-island.js', 'style/app.css'];
const sizes = Object.fromEntries(files.map((f) => [f, { bytes: raw(f), gzip: gz(f) }]));
const shipped = files.reduce((s, f) => s + sizes[f].gzip, 0);
// Fetched only when a search starts (not part of the first load).
const lazy = ['paxos-checker_bg.wasm', 'paxos-checker.js', 'checker-worker.js'];
const lazySizes = Object.fromEntries(lazy.map((f) => [f, { bytes: raw(f), gzip: gz(f) }]));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const events = (f) => Number(spawnSync('cargo', ['run', '--release', '--quiet', '--bin', 'paxos-island', '--', 'run', '--scenario', f],
  { cwd: ROOT, encoding: 'utf8' }).stdout.match(/events\s+(\d+)/)[1]);

const ctx = await start();
const { page, errors } = await open(ctx, { viewport: { width: 1600, height: 1000 } });
async function load(file) {
  await page.getByTestId('import-input').setInputFiles(join(ROOT, 'tests/e2e/bench', file));
  await page.getByTestId('import-status').waitFor();
}
const range = (id, v) => page.getByTestId(id).evaluate((el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, v);

// Frames: the storm — 9 legislators, all proposing, slow messengers.
await load('storm.json');
await range('scrubber', 10_000_000);
await range('speed', 0);
await page.evaluate(() => { window.__paxosPerf = []; });
await page.keyboard.press('Space');
const inFlight = [];
for (let i = 0; i < 8; i++) {
  await page.waitForTimeout(500);
  inFlight.push(await page.getByTestId('messenger').count());
}
await page.keyboard.press('Space');
const frames = await page.evaluate(() => { const f = window.__paxosPerf; window.__paxosPerf = undefined; return f; });

// Frames: the Multi-Paxos log view at 5 replicas, 4 clients and 200 slots
// (the log near its end, playing: 4 s from 15 s, short of the run's end at 20 s —
// Space at the end would start the run again, with an empty log).
await load('multi.json');
await page.getByTestId('multi-view').waitFor();
await page.waitForFunction(() => document.querySelector('[data-testid=scenario]').value === 'bench-multi');
await range('scrubber', 15_000_000);
await range('speed', 0);
await page.evaluate(() => { window.__paxosPerf = []; });
await page.keyboard.press('Space');
await page.waitForTimeout(4000);
await page.keyboard.press('Space');
const slotsShown = await page.locator('[data-testid=mp-log] thead th').count() - 1;
const multiFrames = await page.evaluate(() => { const f = window.__paxosPerf; window.__paxosPerf = undefined; return f; });

// Seeking: a long run.
await load('long.json');
const end = Number(await page.getByTestId('scrubber').getAttribute('max'));
await page.evaluate(() => { window.__paxosPerf = []; });
let seed = 12345;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
for (let i = 0; i < 60; i++) {
  await range('scrubber', Math.floor(rnd() * end));
  await page.waitForTimeout(20);
}
const seeks = await page.evaluate(() => window.__paxosPerf);

// The model checker in the page: the default bounds (3 acceptors, 2
// proposers, 3 ballots, no crash), a full search, five times.
await page.getByTestId('scenario').selectOption('calm');
await page.getByTestId('modelcheck').locator('summary').click();
const checks = [];
for (let i = 0; i < 5; i++) {
  await page.getByTestId('mc-start').click();
  await page.getByTestId('mc-clean').waitFor({ timeout: 120_000 });
  const m = (await page.getByTestId('mc-clean').textContent()).match(/([\d\u2009]+) states \(([\d.]+) s\)/);
  const states = Number(m[1].replace(/\u2009/g, ''));
  checks.push({ states, secs: Number(m[2]), rate: states / Number(m[2]) });
}
await ctx.browser.close();
ctx.server.close();

const r = (x) => Math.round(x * 100) / 100;
const report = {
  shipped_gzip_bytes: shipped,
  sizes,
  lazy_sizes: lazySizes,
  frame_ms: { frames: frames.length, p50: r(pct(frames, 0.5)), p95: r(pct(frames, 0.95)), max: r(Math.max(...frames)), messengers_in_flight: inFlight },
  seek_ms: { run_events: events('tests/e2e/bench/long.json'), seeks: seeks.length, p50: r(pct(seeks, 0.5)), p95: r(pct(seeks, 0.95)), max: r(Math.max(...seeks)) },
  model_check: { runs: checks.length, states: checks[0]?.states, rate_median: Math.round(pct(checks.map((c) => c.rate), 0.5)),
    rate_min: Math.round(Math.min(...checks.map((c) => c.rate))), rate_max: Math.round(Math.max(...checks.map((c) => c.rate))) },
  console_errors: errors,
};
writeFileSync(join(ARTIFACTS, 'bench.json'), JSON.stringify(report, null, 2));
console.log(`shipped size (wasm + js + css, gzip -9): ${(shipped / 1024).toFixed(1)} KiB   [goal ≤ 250 KB]`);
for (const f of files) console.log(`  ${f}: ${sizes[f].bytes} bytes, ${sizes[f].gzip} gzip`);
console.log(`fetched when a model-check search starts (not in the first load): ${(lazy.reduce((s, f) => s + lazySizes[f].gzip, 0) / 1024).toFixed(1)} KiB gzip`);
for (const f of lazy) console.log(`  ${f}: ${lazySizes[f].bytes} bytes, ${lazySizes[f].gzip} gzip`);
console.log(`script time per frame, 9 legislators, ${Math.min(...inFlight)}–${Math.max(...inFlight)} messengers on screen: p50 ${report.frame_ms.p50} ms, p95 ${report.frame_ms.p95} ms, max ${report.frame_ms.max} ms over ${frames.length} frames   [goal p95 ≤ 4 ms]`);
const mf = { p50: pct(multiFrames, 0.5), p95: pct(multiFrames, 0.95), max: Math.max(...multiFrames) };
console.log(`script time per frame, Multi-Paxos log view, 5 replicas, ${slotsShown} slots: p50 ${mf.p50.toFixed(2)} ms, p95 ${mf.p95.toFixed(2)} ms, max ${mf.max.toFixed(2)} ms over ${multiFrames.length} frames   [goal p95 ≤ 4 ms]`);
console.log(`seek in a run of ${report.seek_ms.run_events} events: p50 ${report.seek_ms.p50} ms, p95 ${report.seek_ms.p95} ms, max ${report.seek_ms.max} ms over ${seeks.length} seeks   [goal ≤ 16 ms]`);
console.log(`model check in the page (default bounds, ${report.model_check.states} states): median ${(report.model_check.rate_median / 1000).toFixed(0)} K states/s (spread ${(report.model_check.rate_min / 1000).toFixed(0)}–${(report.model_check.rate_max / 1000).toFixed(0)} over ${checks.length} runs)   [goal ≥ 156 K states/s]`);
if (errors.length) { console.log('console errors:', errors); process.exitCode = 1; }
