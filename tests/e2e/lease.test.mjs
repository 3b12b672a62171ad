// The lease lab: the scene the article is about.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, open, shot, seek, ROOT, hashOf } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

const num = async (page, id) => Number((await page.getByTestId(id).textContent()).trim());

async function lab(page) {
  await page.getByTestId('tab-lease').click();
  await page.getByTestId('lease-lab').waitFor();
}

test('Kleppmann: the write with epoch 33 is rejected after 34 was accepted', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  assert.match(await page.getByTestId('caption').textContent(), /33/);
  await page.keyboard.press('End');
  await page.locator('[data-testid=write-rejected][data-epoch="33"]').waitFor();
  assert.equal(await num(page, 'stale-rejected'), 1);
  assert.equal(await num(page, 'stale-accepted'), 0);
  assert.equal(await num(page, 'damaged'), 0);
  // The narration at the refusal, read in order: 34 accepted before 33 was refused.
  await page.keyboard.press('Shift+ArrowLeft');
  const story = (await page.getByTestId('narration').innerText()).split('\n');
  const refused = story.findIndex((l) => /REJECTS W1's write to order-1: row fenced by a higher epoch — the row was written with epoch 34, above 33/.test(l));
  const accepted = story.findIndex((l) => /accepts W2's write to order-1 with epoch 34/.test(l));
  assert.ok(refused >= 0, 'the refusal is narrated');
  assert.ok(accepted === -1 || accepted > refused, 'newest first: 34 accepted earlier than 33 refused');
  await shot(page, 'lease-kleppmann');
  // The refusal's label lies on the dots of the writes after it: it is drawn
  // over them (after them in the page), so it reads whole.
  const under = await page.locator('[data-testid=write-rejected]').evaluateAll((marks) => marks.flatMap((g) => {
    const label = g.querySelector('.reject-label').getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid=lanes] .write.accepted')]
      .filter((dot) => { const d = dot.getBoundingClientRect(); return d.right > label.left && d.left < label.right && d.bottom > label.top && d.top < label.bottom; })
      .map((dot) => Boolean(g.compareDocumentPosition(dot) & Node.DOCUMENT_POSITION_FOLLOWING));
  }));
  assert.ok(under.length > 0, 'no dot lies under the refusal\'s label: the check checks nothing');
  assert.ok(under.every((over) => !over), `${under.filter(Boolean).length} of the ${under.length} dots under the label are drawn over it`);
  assert.deepEqual(errors, []);
});

test('fencing off: the stale write is accepted and a row is damaged', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('fencing').selectOption('off');
  await page.getByTestId('apply-settings').click();
  await page.keyboard.press('End');
  assert.equal(await num(page, 'stale-accepted'), 1);
  assert.equal(await num(page, 'damaged'), 1);
  await page.locator('[data-testid=write-damaged][data-epoch="33"]').waitFor();
  assert.equal(await page.getByTestId('inv-fencing-monotonic').getAttribute('data-state'), 'broken');
  await shot(page, 'lease-fencing-off');
  assert.deepEqual(errors, []);
});

test('an LLM in the loop stalling longer than the TTL splits the brain and raises the p99 flag', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('llm-in-loop');
  await page.getByTestId('preset').selectOption('stall');
  await page.getByTestId('stall').fill('8');
  await page.getByTestId('apply-settings').click();
  await page.keyboard.press('End');
  assert.ok(Number(await page.getByTestId('split-time').getAttribute('data-us')) > 0, 'a split-brain window');
  assert.equal(await page.getByTestId('flag-p99').getAttribute('data-state'), 'raised');
  // The flag judges the vendor's profile, and says so (a stalled call on the
  // chart beside a quiet "p99 760.8 ms" read as a contradiction).
  assert.match(await page.getByTestId('flag-p99').textContent(), /The LLM vendor's profile \(the LLM behaviour setting, not this run's calls\): p99/);
  assert.equal(await page.getByTestId('flag-depends').getAttribute('data-state'), 'raised');
  await shot(page, 'lease-llm-in-loop');
  // The same stall beside the loop: no split brain, flags quiet.
  await page.getByTestId('design').selectOption('beside');
  await page.getByTestId('apply-settings').click();
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('split-time').getAttribute('data-us'), '0');
  assert.equal(await page.getByTestId('flag-depends').getAttribute('data-state'), 'quiet');
  // Quiet for a reason the trace shows: no worker asks the LLM; an advisor apart from the loop would.
  assert.match(await page.getByTestId('flag-depends').textContent(), /No worker sent the LLM a question/);
  assert.deepEqual(errors, []);
});

test('side by side: one worker paused past its lease, the article\'s fence against the token alone', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('lone-pause');
  await page.getByTestId('compare-fencing').check();
  await page.getByTestId('pane-b').waitFor();
  await page.keyboard.press('End');
  // Pane A, the article: the write on the dead lease is refused for that reason.
  assert.match(await page.getByTestId('pane-a').locator('.pane-title').textContent(), /article/);
  await page.getByTestId('pane-a').locator('[data-testid=write-rejected][data-epoch="33"][data-reason="lease_expired"]').waitFor();
  assert.equal(await num(page, 'dead-writes'), 0);
  // Pane B, the token alone: 33 is the highest epoch, so it lands — and is counted.
  assert.match(await page.getByTestId('pane-b').locator('.pane-title').textContent(), /token/);
  await page.getByTestId('pane-b').locator('[data-testid=write-dead][data-epoch="33"]').waitFor();
  assert.equal(await num(page, 'dead-writes-b'), 1);
  assert.equal(await num(page, 'damaged-b'), 0, 'no newer data was overwritten: only the live-lease check sees it');
  await shot(page, 'lease-side-by-side');
  assert.deepEqual(errors, []);
});

test('the fencing setting: article refuses, token and off let the write on a dead lease in', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('lone-pause');
  assert.equal(await page.getByTestId('fencing').inputValue(), 'article');
  await page.keyboard.press('End');
  assert.match(await page.getByTestId('refused-by').textContent(), /lease expired 1/);
  assert.equal(await page.getByTestId('inv-live-lease').getAttribute('data-state'), 'ok');
  for (const [setting, dead] of [['token', 1], ['off', 1], ['article', 0]]) {
    await page.getByTestId('fencing').selectOption(setting);
    await page.getByTestId('apply-settings').click();
    await page.keyboard.press('End');
    assert.equal(await num(page, 'dead-writes'), dead, setting);
    assert.equal(await page.getByTestId('inv-live-lease').getAttribute('data-state'), 'ok', `${setting} promises only what it checks`);
  }
  // The epoch on every renewal is a setting too; it still refuses the dead lease.
  await page.getByTestId('bump-on-renew').check();
  await page.getByTestId('apply-settings').click();
  await page.keyboard.press('End');
  assert.equal(await num(page, 'dead-writes'), 0);
  assert.equal(await page.getByTestId('bump-on-renew').isChecked(), true);
  await shot(page, 'lease-fencing-setting');
  assert.deepEqual(errors, []);
});

// Shift+→ in the LLM-stall story went from the grants to the refused write,
// past the moment W1's lease ran out while it waited on the LLM (8.9 s).
test('stepping by milestone in the LLM stall stops where the lease runs out', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('llm-in-loop');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Home');
  const stops = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForTimeout(30);
    const t = Number(await page.getByTestId('time').getAttribute('data-us'));
    if (stops.includes(t)) break;
    stops.push(t);
    if (t > 10_000_000) break;
  }
  // 8.91 s: W1's lease runs out; then 9.57 s, W2's grant; 18.94 s, the refusal.
  const dies = stops.findIndex((t) => t > 8_500_000 && t < 9_200_000);
  const w2 = stops.findIndex((t) => t > 9_200_000 && t < 10_000_000);
  assert.ok(dies >= 0 && w2 === dies + 1, `a stop where the lease runs out, before W2's grant: ${stops}`);
  assert.deepEqual(errors, []);
});

test('the SQL panel shows each statement with its parameters, its answer and why a write was fenced out, and copies it', async () => {
  const { page, errors, context } = await open(ctx);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await lab(page);
  await page.getByTestId('scenario').selectOption('lone-pause');
  // Step to the refusal: the last lease milestone before the end.
  await page.keyboard.press('End');
  const why = page.getByTestId('sql-orders').getByTestId('sql-why');
  for (let i = 0; i < 20 && !(await why.count()); i++) await page.keyboard.press('Shift+ArrowLeft');
  const orders = page.getByTestId('sql-orders');
  assert.match(await orders.getByTestId('sql-statement').textContent(), /UPDATE orders o[\s\S]*o\.fence_epoch <= \$3[\s\S]*AND EXISTS[\s\S]*l\.expires_at > now\(\)[\s\S]*RETURNING o\.id;/);
  assert.match(await orders.getByTestId('sql-execute').textContent(), /SET sim\.now_us = '\d+';\s*EXECUTE fenced_write\('order-processor', 'W1', 33, 1, 'done by W1'\);/);
  assert.match(await orders.getByTestId('sql-result').textContent(), /\(0 rows\)/);
  assert.equal(await why.getAttribute('data-reason'), 'lease_expired');
  assert.match(await why.textContent(), /lease expired — epoch 33 ran out at/);
  const leases = page.getByTestId('sql-leases');
  assert.match(await leases.getByTestId('sql-execute').textContent(), /EXECUTE acquire\('order-processor', 'W1', 3\);/);
  assert.match(await leases.getByTestId('sql-result').textContent(), /epoch\s+-+\s+\d+\s+\(1 row\)/);
  // Every statement reads whole, none scrolls sideways (at 1280 px the two
  // blocks side by side cut the lines at their comments): here and on a laptop.
  const cut = () => page.locator('pre.sql').evaluateAll((ps) => ps.filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent.slice(0, 40)));
  assert.deepEqual(await cut(), []);
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(await cut(), []);
  await page.setViewportSize({ width: 1400, height: 900 });
  await orders.getByTestId('sql-copy').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^PREPARE fenced_write\(text, text, bigint, int, text\) AS\nUPDATE orders o/);
  assert.match(copied, /EXECUTE fenced_write\('order-processor', 'W1', 33, 1, 'done by W1'\);$/);
  await orders.scrollIntoViewIfNeeded();
  await shot(page, 'lease-sql-panel');
  // In Japanese the explanation changes language; the SQL stays SQL.
  await page.getByTestId('lang').click();
  // Japanese is a part of its own: wait for the page to switch.
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  assert.match(await why.textContent(), /リースの期限切れ/);
  assert.match(await orders.getByTestId('sql-execute').textContent(), /EXECUTE fenced_write/);
  await orders.scrollIntoViewIfNeeded();
  await shot(page, 'lease-sql-panel-ja');
  assert.deepEqual(errors, []);
});

test('impossible settings are refused inline and the last good run stays', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  const hash = await hashOf(page);
  // Every field lies inside the settings panel (the LLM's select, as wide as
  // its longest option, pushed the form and the Workers field past its edge).
  const spill = await page.getByTestId('lease-controls').evaluate((panel) => {
    const edge = panel.getBoundingClientRect().right;
    return [...panel.querySelectorAll('input, select, button')].filter((e) => e.getBoundingClientRect().right > edge + 0.5).map((e) => e.dataset.testid);
  });
  assert.deepEqual(spill, []);
  assert.equal(await page.getByTestId('renew').getAttribute('placeholder'), 'TTL/3');
  // Nonsense, zero or too long: each time the TTL's own range (nonsense was
  // told "at most 3600", which is not the TTL's).
  for (const typed of ['0', 'abc', '700']) {
    await page.getByTestId('ttl').fill(typed);
    await page.getByTestId('apply-settings').click();
    assert.match(await page.getByTestId('settings-error').textContent(), new RegExp(`TTL \\(s\\): “${typed}” cannot be used here: give a number of seconds from 0\\.1 to 600\\.`));
  }
  // A lease of a millisecond would renew thousands of times a second: the page
  // stood still for seconds simulating it.
  await page.getByTestId('ttl').fill('0.001');
  await page.getByTestId('apply-settings').click();
  assert.match(await page.getByTestId('settings-error').textContent(), /TTL \(s\): “0\.001” cannot be used here/);
  await page.getByTestId('ttl').fill('3');
  await page.getByTestId('renew').fill('5');
  await page.getByTestId('apply-settings').click();
  // Said of the field as the form names it (it said "lease.renew_us").
  const renewSaid = await page.getByTestId('settings-error').textContent();
  assert.match(renewSaid, /^Renew every \(s\): renewing every 5\.000 s with a TTL of 3\.000 s lets the lease lapse between renewals/);
  assert.doesNotMatch(renewSaid, /renew_us/);
  await page.getByTestId('renew').fill('');
  await page.getByTestId('workers').fill('9');
  await page.getByTestId('apply-settings').click();
  assert.match(await page.getByTestId('settings-error').textContent(), /1 – 5/);
  assert.equal(await hashOf(page), hash);
  await shot(page, 'lease-refused');
  // In Japanese the checks' reason is said in Japanese, the file's numbers in it.
  await page.getByTestId('lang').click();
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  await page.getByTestId('workers').fill('2');
  await page.getByTestId('ttl').fill('3');
  await page.getByTestId('renew').fill('5');
  await page.getByTestId('apply-settings').click();
  const ja = await page.getByTestId('settings-error').textContent();
  assert.match(ja, /TTL が 3\.000 s なのに 5\.000 s ごとの更新では、更新と更新のあいだにリースが切れます/);
  assert.doesNotMatch(ja, /lapse|between renewals|more often|renew_us/);
  assert.match(ja, /更新間隔（秒）/);
  assert.equal(await hashOf(page), hash);
  // A Japanese keyboard types full-width digits: read as digits (they were
  // refused as not a duration, not a seed).
  await page.getByTestId('renew').fill('');
  await page.getByTestId('ttl').fill('３．５');
  await page.getByTestId('apply-settings').click();
  await page.waitForFunction((h) => document.querySelector('[data-testid=trace-hash]')?.textContent.trim() !== h, hash);
  assert.equal((await page.getByTestId('settings-error').textContent()).trim(), '');
  await page.getByTestId('seed').fill('４２');
  await page.getByTestId('seed-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=seed]').value === '42');
  assert.deepEqual(errors, []);
});

test('a fault at the very end of a run is refused with a word, not recorded where it never happens', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  const hash = await hashOf(page);
  const faults = page.getByTestId('fault-list').locator('summary');
  const listed = await faults.textContent();
  await page.keyboard.press('End');
  await page.getByTestId('inject-pause').click();
  await page.getByTestId('toast').waitFor();
  assert.match(await page.getByTestId('toast').textContent(), /The run ends here: a fault after its end would change nothing/);
  assert.equal(await hashOf(page), hash);
  assert.equal(await faults.textContent(), listed);
  // A moment before the end it is recorded, as anywhere else.
  await page.keyboard.press('Shift+ArrowLeft');
  await page.getByTestId('inject-pause').click();
  await page.waitForFunction((h) => document.querySelector('[data-testid=trace-hash]')?.textContent.trim() !== h, hash);
  assert.notEqual(await faults.textContent(), listed);
  assert.deepEqual(errors, []);
});

test('the Monte Carlo sweep finishes without freezing the page and shows split brain falling as the TTL grows', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('llm-in-loop');
  await page.getByTestId('preset').selectOption('typical_llm');
  await page.getByTestId('apply-settings').click();
  await page.getByTestId('chart-tab-sweep').click();
  await page.getByTestId('run-sweep').click();
  await page.getByTestId('sweep-progress').waitFor();
  // The page answers while the sweep runs.
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('sweep-chart').waitFor({ timeout: 120000 });
  const cells = JSON.parse(await page.getByTestId('sweep-chart').getAttribute('data-cells'));
  const on = cells.filter((c) => c.fencing).sort((a, b) => a.ttl_us - b.ttl_us);
  assert.ok(on.length >= 5 && on.every((c) => c.runs > 0));
  assert.ok(on[0].split_brain_us > on[on.length - 1].split_brain_us, 'short TTLs split the brain more');
  assert.ok(cells.filter((c) => c.fencing).every((c) => c.lost_updates === 0), 'fencing on: no damage');
  assert.ok(cells.some((c) => !c.fencing && c.lost_updates > 0), 'fencing off: damage');
  assert.match(await page.getByTestId('sweep-chart').innerHTML(), /<svg/);
  await page.getByTestId('sweep-chart').scrollIntoViewIfNeeded();
  await shot(page, 'lease-sweep');
  assert.deepEqual(errors, []);
});

test('the lease lessons show the SQL of each step too', async () => {
  const { page, errors } = await open(ctx);
  await page.goto(ctx.url + '#lesson=llm-lease&step=3');
  await page.getByTestId('player').waitFor();
  await page.keyboard.press('End');
  const orders = page.getByTestId('sql-orders');
  await orders.waitFor();
  assert.match(await orders.getByTestId('sql-statement').textContent(), /PREPARE fenced_write\(text, text, bigint, int, text\) AS\nUPDATE orders o/);
  // This lesson's run has fencing off: the statement that runs has no check.
  assert.doesNotMatch(await orders.getByTestId('sql-statement').textContent(), /EXISTS/);
  assert.match(await page.getByTestId('sql-leases').getByTestId('sql-execute').textContent(), /EXECUTE acquire\('order-processor', 'W\d', 3\);/);
  await orders.scrollIntoViewIfNeeded();
  await shot(page, 'lesson-llm-lease-sql');
  assert.deepEqual(errors, []);
});

test('the store as a Paxos group: its replicas in the lanes, the native trace, and a master crashed by hand', async () => {
  const golden = readFileSync(join(ROOT, 'tests', 'determinism.rs'), 'utf8').match(/\("replicated-store", "([0-9a-f]{16})"\)/)[1];
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('replicated-store');
  assert.equal((await hashOf(page)), golden, 'the page runs the same trace as the native build');
  await page.keyboard.press('End');
  // Three replicas under the store's row: S1 held the master lease and went
  // down once; S2 took over.
  const replica = (n) => page.getByTestId(`replica-${n}`);
  assert.equal(await replica('S1').getAttribute('data-down'), '1');
  assert.ok(Number(await replica('S1').getAttribute('data-masters')) >= 1);
  assert.ok(Number(await replica('S2').getAttribute('data-masters')) >= 1);
  assert.equal(await replica('S3').getAttribute('data-masters'), '0');
  await page.locator('[data-testid=write-rejected][data-epoch="33"]').waitFor();
  await shot(page, 'lease-replicated-store');
  // At 13 s S2 is the master: crash it by hand. The run is re-simulated with
  // the crash, and the lanes show S2 down.
  await seek(page, 13_000_000);
  const crash = page.getByTestId('inject-store-crash');
  assert.match(await crash.textContent(), /Crash the store's master \(S2\)/);
  await crash.click();
  await page.waitForFunction(() => document.querySelector('[data-testid=replica-S2]')?.dataset.down === '1');
  assert.notEqual((await hashOf(page)), golden);
  // S1 came back at 10 s, S3 is up: a new master is elected from them.
  await page.keyboard.press('End');
  const masters = Number(await replica('S1').getAttribute('data-masters')) + Number(await replica('S3').getAttribute('data-masters'));
  assert.ok(masters >= 2, `S1 or S3 took over after S2's crash (${masters} master-lease spans)`);
  await seek(page, 13_500_000);
  await page.getByTestId('inject-store-restart').waitFor();
  assert.match(await page.getByTestId('inject-store-restart').textContent(), /Restart S2/);
  await page.getByTestId('lang').click();
  await page.waitForFunction(() => /再起動 S2/.test(document.querySelector('[data-testid=inject-store-restart]')?.textContent ?? ''));
  assert.deepEqual(errors, []);
});

test('a short link to a lease run opens it at the pace the menu gives it, not at a Paxos run\'s tenth; the run it replaced comes back in its tab, at its moment', async () => {
  // From the menu: the story's pace for this run.
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('llm-in-loop');
  const menuPace = (await page.getByTestId('speed-label').textContent()).trim();
  assert.notEqual(menuPace, '×0.1');
  // The same run from a link, in a fresh page and pasted into an open one.
  const other = await open(ctx);
  await other.page.goto(ctx.url + '#run=llm-in-loop&seed=1');
  await other.page.getByTestId('lease-lab').waitFor();
  assert.equal((await other.page.getByTestId('speed-label').textContent()).trim(), menuPace);
  await page.getByTestId('tab-parliament').click();
  await page.getByTestId('scenario').selectOption('calm');
  assert.equal((await page.getByTestId('speed-label').textContent()).trim(), '×0.1');
  await seek(page, 30000);
  await page.evaluate(() => { location.hash = '#run=llm-in-loop&seed=1'; });
  await page.getByTestId('lease-lab').waitFor();
  assert.equal((await page.getByTestId('speed-label').textContent()).trim(), menuPace);
  // The run it replaced is one click away, and the bar says so in words.
  assert.match(await page.getByTestId('import-status').textContent(), /previous work is kept/);
  await page.getByTestId('restore-previous').click();
  assert.equal(await page.getByTestId('scenario').inputValue(), 'calm');
  // In its own tab, at the moment it was left (it came back in the lease
  // lab's tab, at 0).
  assert.equal(await page.getByTestId('tab-parliament').getAttribute('aria-selected'), 'true');
  await page.getByTestId('parliament').waitFor();
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), '30000');
  // The link left the address too: a reload would open it over the work restored.
  assert.equal(await page.evaluate(() => location.hash), '');
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
});

test('Space after a click plays and pauses, it does not press the clicked button again; a button reached with Tab keeps Space; the caption says the run was changed', async () => {
  const { page, errors } = await open(ctx);
  await lab(page);
  await page.getByTestId('scenario').selectOption('llm-in-loop');
  const faults = async () => (await page.getByTestId('fault-list').locator('summary').textContent()).match(/\((\d+)\)/)[1];
  const before = await faults();
  assert.doesNotMatch(await page.getByTestId('caption').textContent(), /changed since/);
  await page.getByTestId('inject-llm-stall').click();
  const injected = await faults();
  assert.equal(Number(injected), Number(before) + 1);
  // The built-in's story stays, and says the run is no longer it.
  assert.match(await page.getByTestId('caption').textContent(), /W1's next call stalls.*the run on screen has been changed since/);
  const t0 = Number(await page.getByTestId('time').getAttribute('data-us'));
  await page.keyboard.press('Space');
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=time]').dataset.us) > t, t0);
  await page.keyboard.press('Space');
  assert.equal(await faults(), injected, 'Space injected the stall again');
  const paused = await page.getByTestId('time').getAttribute('data-us');
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), paused, 'the second Space did not pause');
  // A tab clicked, then Space: the run plays (it did nothing).
  await page.getByTestId('tab-parliament').click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=time]').dataset.us) > 0);
  await page.keyboard.press('Space');
  // Reached with the keyboard, a button keeps Space: it presses it.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.dataset.testid === 'tab-multi')) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'tab-multi');
  await page.keyboard.press('Space');
  await page.getByTestId('multi-view').waitFor();
  assert.deepEqual(errors, []);
});
