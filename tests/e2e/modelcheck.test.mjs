// "Check every schedule": the model checker in the page, used as a student
// would — configure, start, watch the progress, cancel, and open the
// shortest counterexample in the time machine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, shot } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

async function openPanel(page) {
  await page.getByTestId('modelcheck').locator('summary').click();
  await page.getByTestId('mc-start').waitFor();
}

async function setNumber(page, id, value) {
  const input = page.getByTestId(id);
  await input.fill(String(value));
  await input.dispatchEvent('change');
}

// The longest gap between animation frames while `during` runs.
async function longestFrameGap(page, during) {
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    window.__gapsOn = true;
    const tick = (now) => {
      window.__gaps.push(now - last);
      last = now;
      if (window.__gapsOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await during();
  return page.evaluate(() => {
    window.__gapsOn = false;
    return Math.max(...window.__gaps.slice(1));
  });
}

test('a mutation is caught: the shortest counterexample opens in the time machine at the broken rule', async () => {
  const { page, errors } = await open(ctx);
  await openPanel(page);
  await page.getByTestId('mc-mutation').selectOption('pick-first-vote');
  await page.getByTestId('mc-start').click();
  const found = page.getByTestId('mc-found');
  await found.waitFor({ timeout: 60_000 });
  assert.match(await found.textContent(), /Agreement broken: the shortest counterexample takes 11 steps/);
  await shot(page, 'modelcheck-found');
  await page.getByTestId('mc-open').click();
  // The time machine holds the scripted run, paused where agreement broke.
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=inv-agreement]')?.getAttribute('data-state') === 'broken');
  assert.equal(await page.getByTestId('seat-0').count(), 1);
  assert.equal(await page.locator('[data-testid^=seat-]').count(), 3, 'three legislators, as configured');
  assert.match(await page.getByTestId('import-status').textContent(), /counterexample/i);
  await shot(page, 'modelcheck-counterexample-opened');
  assert.deepEqual(errors, []);
});

test('the unmutated Synod is clean; the page keeps painting while it searches', async () => {
  const { page, errors } = await open(ctx);
  await openPanel(page);
  await setNumber(page, 'mc-ballots', 2);
  assert.match(await page.getByTestId('mc-size').textContent(), /A full search visits/);
  const gap = await longestFrameGap(page, async () => {
    await page.getByTestId('mc-start').click();
    await page.getByTestId('mc-clean').waitFor({ timeout: 60_000 });
  });
  assert.match(await page.getByTestId('mc-clean').textContent(), /No violation in [\d\u2009]+ states/);
  assert.ok(gap < 50, `a frame waited ${gap.toFixed(1)} ms`);
  assert.deepEqual(errors, []);
});

test('a long search shows its progress and can be cancelled', async () => {
  const { page, errors } = await open(ctx);
  await openPanel(page);
  await setNumber(page, 'mc-crashes', 1);
  await page.getByTestId('mc-start').click();
  const running = page.getByTestId('mc-running');
  await running.waitFor();
  await page.waitForFunction(() => {
    const m = document.querySelector('[data-testid=mc-running]')?.textContent.match(/^([\d\u2009]+) states/);
    return m && Number(m[1].replace(/\u2009/g, '')) > 50000;
  });
  assert.match(await running.textContent(), /states\/s/);
  await shot(page, 'modelcheck-running');
  await page.getByTestId('mc-cancel').click();
  await page.getByTestId('mc-cancelled').waitFor();
  assert.match(await page.getByTestId('mc-cancelled').textContent(), /Cancelled after/);
  assert.equal(await page.getByTestId('mc-start').isEnabled(), true);
  assert.deepEqual(errors, []);
});

test('nonsense in a field is refused with a message, and Japanese is spoken', async () => {
  const { page, errors } = await open(ctx, { locale: 'ja-JP' });
  await openPanel(page);
  await setNumber(page, 'mc-acceptors', 9);
  await page.getByTestId('toast').waitFor();
  assert.match(await page.getByTestId('toast').textContent(), /1 から 5 までの整数ではありません/);
  assert.match(await page.getByTestId('modelcheck').locator('summary').textContent(), /すべてのスケジュールを検査/);
  await page.getByTestId('mc-mutation').selectOption('skip-b3');
  await page.getByTestId('mc-start').click();
  await page.getByTestId('mc-found').waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('mc-found').textContent(), /合意が破れました/);
  await shot(page, 'modelcheck-ja');
  assert.deepEqual(errors, []);
});
