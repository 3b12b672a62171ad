// Two-phase commit and Paxos Commit in the page, used as a teacher uses them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, open, shot, ROOT, seek, hashOf } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

const SCENARIOS = ['commit-2pc', 'commit-2pc-tm-crash', 'commit-paxos', 'commit-paxos-tm-crash', 'commit-paxos-f0'];
const golden = (name) => readFileSync(join(ROOT, 'tests', 'determinism.rs'), 'utf8').match(new RegExp(`\\("${name}", "([0-9a-f]{16})"\\)`))[1];
const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();


const lane = (page, rm, pane = 'commit-lanes') => page.locator(`[data-testid=${pane}] [data-testid=rm-lane-${rm}]`);

async function openCommit(page, name) {
  await page.getByTestId('tab-commit').click();
  await page.getByTestId('commit-view').waitFor();
  await page.getByTestId('scenario').selectOption(name);
  await page.waitForFunction((n) => document.querySelector('[data-testid=scenario]').value === n, name);
}

test('the five commit scenarios run in the page with the native trace hashes', async () => {
  const { page, errors } = await open(ctx);
  for (const name of SCENARIOS) {
    await openCommit(page, name);
    assert.equal(await hashOf(page), golden(name), name);
  }
  assert.deepEqual(errors, []);
});

// The TM's crash and restart buttons had no test, and what they injected could
// not be seen or taken out again on this tab (only on the Parliament and the
// lease lab): the tab lists it, in words that fit a machine (not the
// parliament's chamber), and taking it out gives the built-in run back.
test('a crash of the TM injected on the commit tab is listed, said as a crash, and can be taken out again', async () => {
  const { page, errors } = await open(ctx);
  await openCommit(page, 'commit-2pc');
  const before = await hashOf(page);
  await seek(page, 15_000);
  await page.getByTestId('crash-tm').click();
  await page.waitForFunction((h) => document.querySelector('[data-testid=trace-hash]')?.textContent.trim() !== h, before);
  await page.getByTestId('fault-list').locator('summary').click();
  const listed = await page.getByTestId('fault-0').textContent();
  assert.match(listed, /RM1 crashes: what it held only in memory is lost; what it wrote to disk stays\./);
  assert.doesNotMatch(listed, /chamber/);
  await page.getByTestId('remove-fault-0').click();
  await page.waitForFunction((h) => document.querySelector('[data-testid=trace-hash]')?.textContent.trim() === h, before);
  assert.match(await page.getByTestId('fault-list').textContent(), /\(0\)/);
  assert.deepEqual(errors, []);
});

test('the cost table, measured from runs, matches the formulas: 14 or 12 / 17 / 20', async () => {
  const { page, errors } = await open(ctx);
  await openCommit(page, 'commit-paxos');
  const rows = page.locator('[data-testid=costs-table] tbody tr');
  assert.equal(await rows.count(), 4);
  const messages = [];
  for (let i = 0; i < 4; i++) {
    const row = page.getByTestId(`costs-row-${i}`);
    messages.push(Number(await row.getAttribute('data-messages')));
    assert.equal(await row.getAttribute('data-match'), 'true', `row ${i} matches its formula`);
  }
  assert.deepEqual(messages, [14, 12, 17, 20]);
  assert.match(await page.getByTestId('costs-table').textContent(), /N\(F\+3\)−3 = 17/);
  // The row of the run on screen is marked, and its own count is shown.
  assert.match(await page.getByTestId('costs-row-2').getAttribute('class'), /current/);
  await page.keyboard.press('End');
  assert.match(await text(page, 'costs-this-run'), /^This run so far: 17 messages · \d+ stable-storage writes$/);
  await shot(page, 'commit-paxos-table');
  // In Japanese the number stands where Japanese puts it ("4 メッセージ数" read wrongly).
  await page.getByTestId('lang').click();
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  assert.match(await text(page, 'costs-this-run'), /^この実行のここまで：メッセージ 17 通・安定記憶への書き込み \d+ 回$/);
  assert.deepEqual(errors, []);
});

test('after a TM crash the 2PC RMs block while Paxos Commit decides, side by side', async () => {
  const { page, errors } = await open(ctx);
  await openCommit(page, 'commit-2pc-tm-crash');
  await page.getByTestId('commit-compare').check();
  await page.getByTestId('commit-pane-b').waitFor();
  assert.match(await text(page, 'commit-pane-a-title'), /Two-phase commit/);
  assert.match(await text(page, 'commit-pane-b-title'), /Paxos Commit, F = 1/);
  // Side by side only where each pane keeps its width; else one above the other
  // (side by side in a lesson's stage, they were thumbnails of unreadable type).
  const panes = async () => {
    const [a, b] = [await page.getByTestId('commit-pane-a').boundingBox(), await page.getByTestId('commit-pane-b').boundingBox()];
    return { stacked: b.y >= a.y + a.height - 1, width: Math.min(a.width, b.width) };
  };
  const here = await panes();
  assert.ok(here.width >= 540, `each pane is ${here.width}px wide`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  assert.equal((await panes()).stacked, false, 'side by side on a wide screen');
  await page.setViewportSize({ width: 1400, height: 900 });
  await seek(page, 2_500_000);
  for (const rm of ['RM2', 'RM3', 'RM4', 'RM5']) {
    assert.equal(await lane(page, rm).getAttribute('data-phase'), 'uncertain', `2PC ${rm} at 2.5 s`);
    assert.ok(Number(await lane(page, rm).getAttribute('data-uncertain-us')) > 2_000_000);
    assert.equal(await lane(page, rm, 'commit-lanes-b').getAttribute('data-phase'), 'committed', `Paxos Commit ${rm} at 2.5 s`);
  }
  assert.equal(await lane(page, 'RM1').getAttribute('data-down'), 'true');
  await shot(page, 'commit-tm-crash-side-by-side');
  // The TM returns at 3 s: 2PC's RMs learn the outcome (presumed abort).
  await seek(page, 3_200_000);
  assert.equal(await lane(page, 'RM2').getAttribute('data-phase'), 'aborted');
  // A down span's name keeps clear of the phase's name on its row, in large
  // type too ("down" lay on "uncertain — locks held").
  const crossing = () => page.locator('.commit-lanes').first().evaluate((svg) => {
    const box = (e) => e.getBoundingClientRect();
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const downs = [...svg.querySelectorAll('.down-label')].map(box);
    const phases = [...svg.querySelectorAll('.phase-label')].map(box);
    return downs.length ? downs.filter((d) => phases.some((p) => meet(d, p))).length : -1;
  });
  assert.equal(await crossing(), 0);
  await page.getByTestId('large').click();
  assert.equal(await crossing(), 0);
  await page.getByTestId('large').click();
  assert.deepEqual(errors, []);
});

for (const locale of ['en-US', 'ja-JP']) test(`where messengers cross, the commit diagram writes no word over another and none past its edge (${locale})`, async () => {
  const { page, errors } = await open(ctx, { locale });
  await openCommit(page, 'commit-paxos-tm-crash');
  // Both layers: the settled past and what moves with the cursor.
  const words = () => page.getByTestId('commit-diagram').evaluate((root) => {
    const plot = root.querySelector('.lanes line').getBoundingClientRect();
    return [...root.querySelectorAll('.arrows text, .marker text')].filter((e) => e.textContent !== '✕').map((e) => {
      const r = e.getBoundingClientRect();
      return { l: r.left, r: r.right, t: r.top, b: r.bottom, w: e.textContent, arrow: !!e.closest('.arrows'), lo: plot.left, hi: plot.right };
    });
  });
  // At 300 ms four "Prepared ✕ receiver down" had been written on one spot;
  // at the end, the last Commits were cut at the right edge.
  for (const [at, least] of [[300_000, 1], [1_500_000, 3], [null, 5]]) {
    if (at === null) await page.keyboard.press('End'); else await seek(page, at);
    const ws = await words();
    assert.ok(ws.filter((w) => w.arrow).length >= least, `${ws.length} words at ${at}`);
    for (let i = 0; i < ws.length; i++) {
      const a = ws[i];
      if (a.arrow) assert.ok(a.l >= a.lo - 1 && a.r <= a.hi + 1, `"${a.w}" runs past the plot at ${at}`);
      for (const b of ws.slice(i + 1)) {
        const overlap = Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 1;
        assert.ok(!overlap, `"${a.w}" covers "${b.w}" at ${at}`);
      }
    }
  }
  await shot(page, `commit-diagram-words-${locale}`);
  assert.deepEqual(errors, []);
});

test('F = 0 Paxos Commit draws the same arrows as two-phase commit', async () => {
  const { page, errors } = await open(ctx);
  await openCommit(page, 'commit-paxos-f0');
  await page.getByTestId('commit-compare').check();
  await page.getByTestId('commit-pane-b').waitFor();
  await page.keyboard.press('End');
  const arrows = (id) => page.locator(`[data-testid=${id}] line[marker-end]`).evaluateAll((ls) =>
    ls.map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a)).join(',')));
  const f0 = await arrows('commit-diagram');
  const two = await arrows('commit-diagram-b');
  assert.equal(f0.length, 12);
  assert.deepEqual(f0, two);
  await shot(page, 'commit-f0-vs-2pc');
  assert.deepEqual(errors, []);
});

async function lesson(locale, words) {
  const { page, errors } = await open(ctx, { locale });
  await page.goto(ctx.url + '#lesson=commit&step=2');
  await page.getByTestId('predict').waitFor();
  await lane(page, 'RM2').waitFor();
  assert.equal(await lane(page, 'RM2').getAttribute('data-phase'), 'uncertain', 'the question comes with the RMs prepared');
  await shot(page, `commit-lesson-${locale}-question`);
  await page.getByTestId('option-2').check();
  await page.getByTestId('answer').click();
  await page.getByTestId('explanation').waitFor({ timeout: 30000 });
  assert.match(await page.getByTestId('explanation').textContent(), words.block);
  assert.equal(await lane(page, 'RM2').getAttribute('data-phase'), 'aborted');
  await shot(page, `commit-lesson-${locale}-2pc-explained`);
  // Step 4: the same crash in Paxos Commit.
  await page.getByTestId('step-next').click();
  await page.getByTestId('step-next').click();
  await page.getByTestId('predict').waitFor();
  await page.getByTestId('option-1').check();
  await page.getByTestId('answer').click();
  await page.getByTestId('explanation').waitFor({ timeout: 30000 });
  assert.match(await page.getByTestId('explanation').textContent(), words.takeover);
  for (const rm of ['RM2', 'RM3', 'RM4', 'RM5']) assert.equal(await lane(page, rm).getAttribute('data-phase'), 'committed', rm);
  await shot(page, `commit-lesson-${locale}-paxos-explained`);
  // Step 5: side by side, F = 0 and 2PC.
  await page.getByTestId('step-next').click();
  await page.getByTestId('commit-pane-b').waitFor();
  await shot(page, `commit-lesson-${locale}-f0`);
  // Step 6: the price, in a table of runs.
  await page.getByTestId('step-next').click();
  await page.getByTestId('costs-table').waitFor();
  assert.match(await page.getByTestId('step').textContent(), words.price);
  await shot(page, `commit-lesson-${locale}-price`);
  assert.deepEqual(errors, []);
}

test('the live commit lesson in English: predict, watch 2PC block and Paxos Commit finish', async () => {
  await lesson('en-US', { block: /They block/, takeover: /\(1,RM2\)/, price: /not blocking/ });
});

test('the live commit lesson in Japanese: 2 相コミット', async () => {
  await lesson('ja-JP', { block: /ブロックします/, takeover: /\(1,RM2\)/, price: /2 相コミットはもともと安全/ });
});
