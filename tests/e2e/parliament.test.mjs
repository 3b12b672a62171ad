// The parliament view, used the way a teacher and a student use it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, open, shot, ROOT, hashOf, seek } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

// textContent, not innerText: many of these are SVG text elements.
const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();
const seat = (page, i) => page.locator(`[data-testid=seat-${i}] circle.seat`);
async function setRange(page, id, value) {
  await page.getByTestId(id).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}
const nativeHash = (scenario, seed) => {
  const out = execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'paxos-island', '--',
    'run', '--scenario', scenario, '--seed', String(seed)], { cwd: ROOT, encoding: 'utf8' });
  return out.match(/trace hash ([0-9a-f]{16})/)[1];
};

async function fastest(page) {
  await setRange(page, 'speed', 2);
}

test('the first screen is the calm run, paused at 0, with the hint', async () => {
  const { page, errors } = await open(ctx);
  await page.getByText('Press Space').waitFor();
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), '0');
  assert.equal(await page.locator('[data-testid^=seat-]').count(), 5);
  await shot(page, 'parliament-first-screen');
  assert.deepEqual(errors, []);
});

test('the same seed gives the same trace hash in the browser as natively', async () => {
  const golden = readFileSync(join(ROOT, 'tests', 'determinism.rs'), 'utf8').match(/\("calm", "([0-9a-f]{16})"\)/)[1];
  const { page, errors } = await open(ctx);
  assert.equal(await hashOf(page), golden);
  // A different seed, typed into the page, against the command-line tool.
  await page.getByTestId('seed').fill('7');
  await page.getByTestId('seed-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=seed]').value === '7');
  assert.equal(await hashOf(page), nativeHash('calm', 7));
  assert.deepEqual(errors, []);
});

test('playing the calm run ends with every ledger showing decree α, and play then offers to start again', async () => {
  const { page, errors } = await open(ctx);
  await fastest(page);
  await page.keyboard.press('Space');
  await page.getByTestId('decided').waitFor({ timeout: 15000 });
  assert.equal(await page.getByTestId('decided').getAttribute('data-value'), 'α');
  // At its end the run stops, and play says it starts again.
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-label') === 'Play again from the start');
  assert.equal((await page.getByTestId('play').textContent()).trim(), '↺');
  for (let i = 0; i < 5; i++) assert.match(await text(page, `learned-${i}`), /α/);
  await shot(page, 'parliament-decided');
  await page.keyboard.press('Home');
  assert.equal(await page.getByTestId('play').getAttribute('aria-label'), 'Play');
  assert.deepEqual(errors, []);
});

test('step forward then back shows the same ledgers again', async () => {
  const { page, errors } = await open(ctx);
  const ledgers = async () => Promise.all([0, 1, 2, 3, 4].map(async (i) =>
    `${await text(page, `vote-${i}`)}|${await text(page, `learned-${i}`)}`));
  for (let i = 0; i < 6; i++) await page.getByTestId('step-forward').click();
  const t6 = await page.getByTestId('time').getAttribute('data-us');
  const before = await ledgers();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  assert.notEqual(await page.getByTestId('time').getAttribute('data-us'), t6);
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), t6);
  assert.deepEqual(await ledgers(), before);
  assert.deepEqual(errors, []);
});

test('the narration puts a stepped line on top and keeps the lines already there (a screen reader hears only the new one)', async () => {
  const { page, errors } = await open(ctx);
  const narration = page.getByTestId('narration');
  for (let i = 0; i < 5; i++) await page.getByTestId('step-forward').click();
  await narration.locator('li:not(.empty)').first().waitFor();
  // Tag the lines on screen, then step once more.
  const n0 = await narration.evaluate((ol) => {
    const lines = [...ol.querySelectorAll('li:not(.empty)')];
    lines.forEach((li, i) => { li.dataset.seen = String(i); });
    return lines.length;
  });
  assert.ok(n0 >= 2, `only ${n0} lines after five steps`);
  await page.getByTestId('step-forward').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=narration] li:not(.empty)').dataset.seen);
  const after = await narration.evaluate((ol) => [...ol.querySelectorAll('li:not(.empty)')].map((li) => ({
    seen: li.dataset.seen ?? null, t: Number(li.querySelector('button').dataset.t),
  })));
  const fresh = after.filter((l) => l.seen === null).length;
  assert.ok(fresh >= 1, 'no new line on top');
  // Every line that was there is the same element, in the same order, under the new ones.
  assert.deepEqual(after.slice(fresh).map((l) => l.seen), [...Array(n0).keys()].map(String));
  // Newest first: the moments never increase down the list.
  for (let i = 1; i < after.length; i++) assert.ok(after[i].t <= after[i - 1].t, `line ${i} is later than the one above it`);
  // The top line's moment is the cursor's.
  assert.equal(String(after[0].t), await page.getByTestId('time').getAttribute('data-us'));
  // Back one step: the new lines go, the old ones stay.
  await page.getByTestId('step-back').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=narration] li:not(.empty)').dataset.seen === '0');
  assert.equal(await narration.locator('li:not(.empty)').count(), n0);
  assert.deepEqual(errors, []);
});

test('a crashed legislator leaves the chamber and comes back with its ledger', async () => {
  const { page, errors } = await open(ctx);
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  const vote = await text(page, 'vote-2');
  await seat(page, 2).click();
  await page.getByTestId('crash').click();
  assert.equal(await page.getByTestId('seat-2').getAttribute('data-status'), 'away');
  assert.equal(await text(page, 'vote-2'), vote, 'the ink stays');
  // Away, it hears nothing: what it would be told is off, and said so.
  for (const id of ['pause', 'stall-preset', 'propose']) assert.equal(await page.getByTestId(id).isDisabled(), true, id);
  assert.match(await text(page, 'away-hint'), /Restart it/);
  await shot(page, 'parliament-crashed');
  await page.getByTestId('restart').click();
  assert.equal(await page.getByTestId('seat-2').getAttribute('data-status'), 'present');
  assert.equal(await page.getByTestId('away-hint').count(), 0);
  assert.equal(await page.getByTestId('propose').isDisabled(), false);
  // From the keyboard: Crash disables itself, and the focus fell to the page
  // (a teacher lost their place); it goes to Restart, and back.
  const focused = () => page.evaluate(() => document.activeElement?.dataset.testid ?? document.activeElement?.tagName);
  await page.getByTestId('crash').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'restart').catch(() => {});
  assert.equal(await focused(), 'restart');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'crash').catch(() => {});
  assert.equal(await focused(), 'crash');
  assert.equal(await page.getByTestId('seat-2').getAttribute('data-status'), 'present');
  assert.deepEqual(errors, []);
});

test('a stalled legislator sleeps and wakes with its old beliefs', async () => {
  const { page, errors } = await open(ctx);
  await page.keyboard.press('ArrowRight');
  await seat(page, 1).click();
  await page.getByTestId('pause-seconds').fill('2');
  await page.getByTestId('pause').click();
  assert.equal(await page.getByTestId('seat-1').getAttribute('data-status'), 'asleep');
  await page.locator('[data-testid=seat-1] .zzz').waitFor();
  // The countdown moves with the cursor, under the seat and in the inspector
  // (the pause begins a microsecond after the moment it was given at).
  const countdown = () => page.locator('[data-testid=seat-1] .countdown').textContent();
  assert.equal(await countdown(), '2.000 s');
  const paused = Number(await page.getByTestId('time').getAttribute('data-us'));
  await seek(page, paused + 300_000);
  assert.equal(await countdown(), '1.700 s');
  assert.match(await text(page, 'selected-status'), /\(1\.700 s\)/);
  await shot(page, 'parliament-asleep');
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('seat-1').getAttribute('data-status'), 'present');
  assert.match(await text(page, 'narration'), /wakes up/);
  assert.deepEqual(errors, []);
});

test('a duration typed with a decimal comma or point is read exactly; a malformed one is refused', async () => {
  const { page, errors } = await open(ctx);
  await page.keyboard.press('ArrowRight');
  await seat(page, 1).click();
  await page.getByTestId('pause-seconds').fill('1.2.5');
  await page.getByTestId('pause').click();
  assert.match(await text(page, 'fault-error'), /not a duration/);
  assert.equal(await page.getByTestId('seat-1').getAttribute('data-status'), 'present');
  await page.getByTestId('pause-seconds').fill(' 0,25 ');
  await page.getByTestId('pause').click();
  assert.equal(await page.getByTestId('seat-1').getAttribute('data-status'), 'asleep');
  assert.equal(await page.locator('[data-testid=seat-1] .countdown').textContent(), '250.0 ms');
  await seat(page, 2).click();
  await page.getByTestId('pause-seconds').fill('.5');
  await page.getByTestId('pause').click();
  assert.equal(await page.locator('[data-testid=seat-2] .countdown').textContent(), '500.0 ms');
  assert.deepEqual(errors, []);
});

test('on the scrubber the arrows step the run by event and Space plays, as beside it', async () => {
  const { page, errors } = await open(ctx);
  const us = async () => Number(await page.getByTestId('time').getAttribute('data-us'));
  await page.getByTestId('scrubber').focus();
  await page.keyboard.press('ArrowRight');
  const first = await us();
  // The next event, not the next microsecond (they moved it by 1 µs).
  assert.ok(first > 1, `ArrowRight on the scrubber went to ${first} µs`);
  await page.keyboard.press('ArrowRight');
  assert.ok(await us() > first);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await us(), first);
  await page.keyboard.press('Space');
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=time]').dataset.us) > t + 1000, first);
  await page.keyboard.press('Space');
  assert.deepEqual(errors, []);
});

test('bad input in a form field is refused inline and the run is untouched', async () => {
  const { page, errors } = await open(ctx);
  const hash = await hashOf(page);
  await page.getByTestId('seed').fill('forty-two');
  await page.getByTestId('seed-apply').click();
  assert.match(await text(page, 'seed-error'), /not a seed/);
  assert.equal(await page.getByTestId('seed').getAttribute('aria-invalid'), 'true');
  assert.equal(await hashOf(page), hash);
  // The message lies over the tools beneath the field: they still take a
  // click (playwright's click fails on an element covered by another), and
  // it goes once one has left the field, which keeps its red edge.
  assert.equal(await page.getByTestId('seed-error').isVisible(), true);
  await page.getByTestId('file-menu').locator('summary').click();
  assert.equal(await page.getByTestId('seed-error').isVisible(), false);
  assert.equal(await page.getByTestId('seed').getAttribute('aria-invalid'), 'true');
  await page.getByTestId('file-menu').locator('summary').click();
  await seat(page, 0).click();
  await page.getByTestId('pause-seconds').fill('-3');
  await page.getByTestId('pause').click();
  assert.match(await text(page, 'fault-error'), /not a duration/);
  await page.getByTestId('propose-value').fill('an overly long decree for this chamber');
  await page.getByTestId('propose').click();
  assert.match(await text(page, 'fault-error'), /at most 24 bytes/);
  assert.equal(await hashOf(page), hash);
  await shot(page, 'parliament-bad-input');
  assert.deepEqual(errors, []);
});

test('the scrubber jumps to the middle and back', async () => {
  const { page, errors } = await open(ctx);
  const end = Number((await page.getByTestId('scrubber').getAttribute('max')));
  await setRange(page, 'scrubber', Math.floor(end / 2));
  assert.equal(Number(await page.getByTestId('time').getAttribute('data-us')), Math.floor(end / 2));
  assert.ok(await page.getByTestId('messenger').count() >= 0);
  await setRange(page, 'scrubber', 0);
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), '0');
  assert.deepEqual(errors, []);
});

test('a mutation breaks agreement: the badge turns red with a jump to the step, and the banner says two decrees passed', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('scenario').selectOption('forced');
  await page.getByTestId('mutation').selectOption('skip-b3');
  assert.equal(await page.getByTestId('inv-agreement').getAttribute('data-state'), 'ok');
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('inv-agreement').getAttribute('data-state'), 'broken');
  await page.getByTestId('inv-agreement').getByRole('button').click();
  const t = Number(await page.getByTestId('time').getAttribute('data-us'));
  assert.ok(t > 0);
  assert.equal(await page.getByTestId('inv-agreement').getAttribute('data-state'), 'broken');
  // The narration says what the broken proposer did with the votes reported
  // (it said "Free: nobody in the quorum has voted", which the promises contradict).
  assert.match(await page.getByTestId('narration').innerText(), /B3 broken: votes were reported — the highest is .+'s in ballot .+ — but [ΑΒΓΔΕ] ignores them and proposes its own decree γ\./);
  // The banner says two decrees passed (it said "Decree passed: α" beside the red badge).
  assert.match(await page.getByTestId('decided').textContent(), /^Agreement broken — two decrees passed: (α, γ|γ, α)$/);
  await shot(page, 'parliament-agreement-broken');
  // Before the second decree, one had passed, and the banner says so.
  await page.keyboard.press('Shift+ArrowLeft');
  assert.match(await page.getByTestId('decided').textContent(), /^Decree passed: [αγ]$/);
  // Another scenario keeps the broken algorithm: it is the algorithm's, not
  // the scenario's (it went back to "none" without a word).
  await page.getByTestId('scenario').selectOption('dueling');
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario]').value === 'dueling');
  assert.equal(await page.getByTestId('mutation').inputValue(), 'skip-b3');
  assert.deepEqual(errors, []);
});

test('keyboard: ? opens the help, which keeps the focus and the keys; Escape closes it; P presents', async () => {
  const { page, errors } = await open(ctx);
  await page.keyboard.press('?');
  await page.getByTestId('help').waitFor();
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'help-close');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'help-close', 'Tab left the help');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'help-close', 'Shift+Tab left the help');
  // The page behind takes no keys while the help is open.
  const t0 = await page.getByTestId('time').getAttribute('data-us');
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), t0);
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('help').count(), 0);
  await page.keyboard.press('p');
  assert.match(await page.getByTestId('app').getAttribute('class'), /presenter/);
  await shot(page, 'parliament-presenter');
  assert.deepEqual(errors, []);
});

test('network settings: duplication and latency are recorded; nonsense is refused inline', async () => {
  const { page, errors } = await open(ctx);
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('network-faults').locator('summary').click();
  await page.getByTestId('duplicate').fill('50');
  await page.getByTestId('latency').fill('20–40');
  await page.getByTestId('loss-apply').click();
  await page.keyboard.press('End');
  assert.match(await text(page, 'narration'), /duplicated with probability 50 %|duplicates/);
  await page.getByTestId('latency').fill('fast');
  await page.getByTestId('loss-apply').click();
  assert.match(await text(page, 'network-error'), /not a latency/);
  assert.deepEqual(errors, []);
});

test('a crash inside the app shows a visible message, never a blank page', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(ctx.url + '?crashtest');
  await page.locator('#panic').waitFor({ state: 'visible' });
  assert.match(await page.locator('#panic').textContent(), /crash-screen self-test/);
  assert.match(await page.locator('#panic').textContent(), /Reload/);
  await shot(page, 'crash-screen');
  await context.close();
});
