// The parts of the page fetched when first shown (src/ui/parts.rs): the first
// load carries the parliament alone; a part says it is loading, and a part
// that cannot be fetched says so and offers a retry with the work untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { start, open, shot, ROOT, hashOf, playAndPause } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

const PARTS = ['lease', 'commit', 'multi', 'ballots', 'lessons'];
const partOf = (url) => url.match(/split_(\w+)\.wasm$/)?.[1];

/// Holds back every fetch of the named parts until `release()` is called,
/// and records which parts were asked for.
function holdParts(names) {
  const asked = [];
  let release;
  const gate = new Promise((r) => { release = r; });
  const setup = async (page) => {
    page.on('request', (q) => { const p = partOf(q.url()); if (p) asked.push(p); });
    await page.route(/split_\w+\.wasm$/, async (route) => {
      if (names.includes(partOf(route.request().url()))) await gate;
      await route.continue();
    });
  };
  return { asked, release, setup };
}

test('the parliament plays without any part; the lease lab is fetched when its tab opens, saying so meanwhile', async () => {
  const hold = holdParts(['lease']);
  const { page, errors } = await open(ctx, { setup: hold.setup });
  await page.getByTestId('play').click();
  await page.waitForTimeout(800);
  await page.getByTestId('play').click();
  // Only what comes after the first paint (the side column, the diagram).
  assert.deepEqual([...new Set(hold.asked)], ['later'], 'no view\'s part in the first load');
  await page.getByTestId('tab-lease').click();
  const loading = page.getByTestId('part-loading');
  await loading.waitFor();
  assert.match(await loading.textContent(), /Loading the Lease lab view/);
  await shot(page, 'parts-loading');
  hold.release();
  await page.getByTestId('lease-lab').waitFor();
  assert.equal(await loading.count(), 0);
  assert.match(await page.getByTestId('caption').textContent(), /33/);
  // The side column's injections come with the same part.
  await page.getByTestId('side-inject').locator('button').first().waitFor();
  // With it, the builders of the runs of the protocols other than Paxos,
  // which the tab's first run needs (a chunk the lease part shares).
  assert.deepEqual([...new Set(hold.asked)].sort(), ['builders', 'later', 'lease']);
  // Every other tab draws from its own part.
  for (const [tab, view] of [['tab-commit', 'commit-view'], ['tab-multi', 'multi-view'], ['tab-ballots', 'ballots'], ['tab-lessons', 'lessons']]) {
    await page.getByTestId(tab).click();
    await page.getByTestId(view).waitFor();
  }
  // The lessons with their texts in the page's language, not the other's.
  assert.deepEqual([...new Set(hold.asked)].sort(), ['builders', 'later', 'lessons_en', ...PARTS].sort());
  assert.deepEqual(errors, []);
});

test('the parliament paints and plays before the side column\'s part arrives; the narration, diagram and hash come with it', async () => {
  const hold = holdParts(['later']);
  const { page, errors } = await open(ctx, { setup: hold.setup, later: false });
  await playAndPause(page);
  assert.deepEqual([...new Set(hold.asked)], ['later'], 'fetched in the background after the first paint');
  assert.equal(await page.getByTestId('app').getAttribute('data-later'), 'loading');
  // Held back: nothing of it is drawn, and it waits without a loading line.
  for (const id of ['narration', 'spacetime', 'part-loading', 'part-failed']) assert.equal(await page.getByTestId(id).count(), 0, id);
  assert.equal((await page.getByTestId('trace-hash').textContent()).trim(), '');
  hold.release();
  await page.locator('[data-testid=app][data-later=ready]').waitFor();
  await page.getByTestId('narration').locator('li').first().waitFor();
  await page.getByTestId('spacetime').waitFor();
  assert.match(await hashOf(page), /^[0-9a-f]{16}$/);
  assert.deepEqual(errors, []);
});

test('before any part is here the first load builds only what it makes itself: every built-in Paxos run, a seed, a mutation, a crash and a restart', async () => {
  // Every part held back: the page has neither the scenario checks nor the
  // bell-shaped latencies (src/scenario.rs, `install_checks`).
  const hold = holdParts(['later', 'builders', 'readers', 'exports', 'qr', 'checker', ...PARTS]);
  // A phone's width: the chamber's rows (with their Crash and Restart) are
  // the first load's; a wide screen has them in the side column's inspector.
  const { page, errors } = await open(ctx, { setup: hold.setup, later: false, viewport: { width: 390, height: 844 } });
  const bad = page.locator('[data-testid=toast].bad');
  // The menu's runs are the built-in Paxos runs (`builtin::PAXOS_NAMES`).
  const paxos = await page.getByTestId('scenario').locator('option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(paxos.length >= 10 && paxos.includes('calm') && paxos.includes('dueling'), `${paxos}`);
  for (const name of paxos) {
    await page.getByTestId('scenario').selectOption(name);
    await page.waitForFunction((n) => document.querySelector('[data-testid=scenario]').value === n, name);
    await page.getByTestId('seat-0').waitFor();
    assert.equal(await bad.count(), 0, `${name}: ${await bad.allTextContents()}`);
  }
  await page.getByTestId('seed').fill('7');
  await page.getByTestId('seed-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=seed]').value === '7');
  const mutations = await page.getByTestId('mutation').locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(mutations.length >= 3, `${mutations}`);
  for (const m of mutations) {
    await page.getByTestId('mutation').selectOption(m);
    await page.waitForFunction((v) => document.querySelector('[data-testid=mutation]').value === v, m);
    assert.equal(await bad.count(), 0, `${m}: ${await bad.allTextContents()}`);
  }
  await page.locator('[data-testid=seat-2] circle.seat').click();
  await page.getByTestId('row-crash').click();
  assert.equal(await page.getByTestId('seat-2').getAttribute('data-status'), 'away');
  await page.getByTestId('row-restart').click();
  await page.getByTestId('row-crash').waitFor();
  await playAndPause(page);
  assert.equal(await bad.count(), 0, `${await bad.allTextContents()}`);
  assert.deepEqual([...new Set(hold.asked)], ['later'], 'only the side column was asked for (and held)');
  // The side column arrives with the checks: what a user types is checked again.
  hold.release();
  await page.locator('[data-testid=app][data-later=ready]').waitFor();
  assert.match(await hashOf(page), /^[0-9a-f]{16}$/);
  assert.deepEqual(errors, []);
});

test('a side column that cannot be fetched says so once, in the page\'s language, with a retry; the parliament plays meanwhile', async () => {
  for (const locale of ['en-US', 'ja-JP']) {
    let fail = true;
    const { page, errors } = await open(ctx, {
      locale,
      later: false,
      setup: (page) => page.route(/split_later\.wasm$/, (route) => (fail ? route.abort('connectionreset') : route.continue())),
    });
    const failed = page.getByTestId('part-failed');
    await failed.waitFor();
    assert.equal(await failed.count(), 1, 'one alert, in the side column');
    assert.equal(await page.locator('aside.side [data-testid=part-failed]').count(), 1);
    assert.match(await failed.textContent(), locale === 'en-US' ? /The narration view could not be fetched.*try again/ : /「解説」の画面を取得できませんでした/);
    await shot(page, `parts-later-failed-${locale}`);
    await playAndPause(page);
    fail = false;
    await page.getByTestId('part-retry').click();
    await page.getByTestId('narration').waitFor();
    await page.getByTestId('spacetime').waitFor();
    assert.equal(await failed.count(), 0);
    assert.match(await hashOf(page), /^[0-9a-f]{16}$/);
    const other = errors.filter((e) => !/split_later|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
    assert.deepEqual(other, []);
  }
});

test('the parts\' stylesheet comes after the first paint: without it the parliament plays, the side column says it cannot be drawn, and a retry brings the parts styled', async () => {
  let fail = true;
  let askedBeforePlay = null;
  const { page, errors } = await open(ctx, {
    later: false,
    setup: async (page) => {
      page.on('request', async (q) => {
        if (/parts\.css$/.test(q.url()) && askedBeforePlay === null) {
          askedBeforePlay = await page.evaluate(() => !document.querySelector('[data-testid=play]')).catch(() => true);
        }
      });
      await page.route(/style\/parts\.css$/, (route) => (fail ? route.abort('connectionreset') : route.continue()));
    },
  });
  await playAndPause(page);
  // The side column is the first part to come, and the first to need the rules.
  await page.waitForSelector('[data-testid=app][data-later=failed]');
  assert.equal(askedBeforePlay, false, 'the stylesheet is asked for once the page is there, not before');
  const failed = page.getByTestId('part-failed');
  assert.equal(await failed.count(), 1);
  fail = false;
  await page.getByTestId('part-retry').click();
  await page.waitForSelector('[data-testid=app][data-later=ready]');
  assert.equal(await failed.count(), 0);
  // Its rules apply: the invariants are pills, the lease lab a column.
  assert.equal(await page.locator('[data-testid=invariants] .badge').first().evaluate((el) => getComputedStyle(el).borderTopLeftRadius), '999px');
  await page.getByTestId('tab-lease').click();
  await page.getByTestId('lease-lab').waitFor();
  assert.equal(await page.getByTestId('lease-lab').evaluate((el) => getComputedStyle(el).display), 'flex');
  const other = errors.filter((e) => !/parts\.css|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
  assert.deepEqual(other, []);
});

test('the parts\' stylesheet is asked for beside the first part\'s chunk, not once the chunk has come', async () => {
  const hold = holdParts(['later']);
  let css = false;
  const { page, errors } = await open(ctx, {
    later: false,
    setup: async (page) => {
      page.on('request', (q) => { if (/parts\.css$/.test(q.url())) css = true; });
      await hold.setup(page);
    },
  });
  await playAndPause(page);
  await page.waitForFunction(() => performance.getEntriesByType('resource').length > 0);
  for (let i = 0; i < 40 && !(hold.asked.includes('later') && css); i++) await page.waitForTimeout(50);
  assert.ok(hold.asked.includes('later'), 'the side column\'s part is on its way');
  assert.ok(css, 'the stylesheet is asked for while the chunk is held back');
  hold.release();
  await page.waitForSelector('[data-testid=app][data-later=ready]');
  assert.deepEqual(errors, []);
});

test('a part that cannot be fetched says why, in the page\'s language, and a retry brings it; the parliament stays usable', async () => {
  for (const locale of ['en-US', 'ja-JP']) {
    let fail = true;
    const { page, errors } = await open(ctx, {
      locale,
      setup: (page) => page.route(/split_ballots\.wasm$/, (route) => (fail ? route.abort('connectionreset') : route.continue())),
    });
    await page.getByTestId('scenario').selectOption('dueling');
    await page.getByTestId('tab-ballots').click();
    const failed = page.getByTestId('part-failed');
    await failed.waitFor();
    assert.match(await failed.textContent(), locale === 'en-US' ? /The Ballots view could not be fetched.*try again/ : /画面を取得できませんでした/);
    assert.equal(await failed.getAttribute('role'), 'alert');
    await shot(page, `parts-failed-${locale}`);
    // The parliament is one tab away, with the run chosen before.
    await page.getByTestId('tab-parliament').click();
    assert.equal(await page.getByTestId('scenario').inputValue(), 'dueling');
    await page.getByTestId('play').click();
    await page.getByTestId('play').click();
    // Still failing: the retry says so again; then the network is back.
    await page.getByTestId('tab-ballots').click();
    await page.getByTestId('part-retry').click();
    await failed.waitFor();
    fail = false;
    await page.getByTestId('part-retry').click();
    await page.getByTestId('ballots').waitFor();
    assert.equal(await failed.count(), 0);
    // The loader reports each failed fetch on the console; nothing else may.
    const other = errors.filter((e) => !/split_ballots|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
    assert.deepEqual(other, []);
  }
});

test('a lab whose part could not be fetched opens its own run when a retry brings the part', async () => {
  let fail = true;
  const { page, errors } = await open(ctx, {
    setup: (page) => page.route(/split_(lease|builders)\.wasm$/, (route) => (fail ? route.abort('connectionreset') : route.continue())),
  });
  await page.getByTestId('tab-lease').click();
  const failed = page.getByTestId('stage').getByTestId('part-failed');
  await failed.waitFor();
  // Said once, on the stage: not again in the side column beside it.
  assert.equal(await page.getByTestId('part-failed').count(), 1);
  // Nothing half done: the run on screen is the one from before.
  assert.equal(await page.getByTestId('scenario').inputValue(), 'calm');
  fail = false;
  await failed.getByTestId('part-retry').click();
  await page.getByTestId('lease-lab').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario]').value === 'kleppmann', null, { polling: 50 });
  assert.match(await page.getByTestId('caption').textContent(), /33/);
  const other = errors.filter((e) => !/split_|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
  assert.deepEqual(other, []);
});

test('a cold lesson link and a cold share link into the lease lab show their progress, then the step and the run', async () => {
  // A lesson link: the lessons' part, then the lease lab's for its stage.
  const hold = holdParts(['lessons', 'lease']);
  const { page, errors } = await open(ctx, { hash: '#lesson=llm-lease&step=5', setup: hold.setup });
  const loading = page.getByTestId('part-loading');
  await loading.waitFor();
  assert.match(await loading.textContent(), /Loading the Lessons view/);
  hold.release();
  await page.getByTestId('player').waitFor();
  await page.getByTestId('red-flags').waitFor();
  assert.deepEqual(errors, []);

  // A share link of a lease run, opened in a fresh page. (In a lesson the
  // File menu's link is the step's: the lab's own run is shared.)
  await page.getByTestId('tab-lease').click();
  await page.getByTestId('lease-lab').waitFor();
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /#s=/);
  const hold2 = holdParts(['lease']);
  const { page: p2, errors: e2 } = await open(ctx, { hash: link.slice(link.indexOf('#')), setup: hold2.setup });
  await p2.getByTestId('part-loading').waitFor();
  assert.match(await p2.getByTestId('part-loading').textContent(), /Loading the Lease lab view/);
  hold2.release();
  await p2.getByTestId('lease-lab').waitFor();
  await p2.getByTestId('lanes').waitFor();
  assert.deepEqual(e2, []);
});

test('a lesson fetches the texts of the page\'s language only; the other language\'s come when it is chosen, with the loading line and a retry if they fail, and the step stays', async () => {
  const asked = [];
  let fail = true;
  let release;
  const gate = new Promise((r) => { release = r; });
  const { page, errors } = await open(ctx, {
    hash: '#lesson=llm-lease&step=2',
    setup: async (page) => {
      page.on('request', (q) => { const p = partOf(q.url()); if (p) asked.push(p); });
      await page.route(/split_lessons_ja\.wasm$/, async (route) => {
        if (fail) return route.abort('connectionreset');
        await gate;
        await route.continue();
      });
    },
  });
  await page.getByTestId('player').waitFor();
  const title = await page.getByTestId('step-title').textContent();
  assert.ok(asked.includes('lessons') && asked.includes('lessons_en'), asked.join());
  assert.ok(!asked.includes('lessons_ja'), 'no Japanese texts for an English page');
  // Japanese chosen, its texts cannot be fetched: the lessons say so, in Japanese.
  await page.getByTestId('lang').click();
  const failed = page.getByTestId('part-failed');
  await failed.waitFor();
  assert.match(await failed.textContent(), /画面を取得できませんでした/);
  // A retry while they come shows the loading line, then the same step in Japanese.
  fail = false;
  await page.getByTestId('part-retry').click();
  await page.getByTestId('part-loading').waitFor();
  release();
  await page.getByTestId('player').waitFor();
  assert.match(await page.getByTestId('step-title').textContent(), /[\u3040-\u30ff\u4e00-\u9fff]/);
  assert.match(page.url(), /lesson=llm-lease/);
  // Back to English: its texts are here, nothing is fetched again.
  const before = asked.length;
  await page.getByTestId('lang').click();
  await page.getByTestId('player').waitFor();
  assert.equal(await page.getByTestId('step-title').textContent(), title);
  assert.equal(asked.length, before);
  const other = errors.filter((e) => !/split_lessons_ja|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
  assert.deepEqual(other, []);
});

test('a cold short link to another protocol\'s built-in run fetches that protocol\'s part, then opens the run at the link\'s seed', async () => {
  // The other protocols' built-in runs come with their part: the page knows
  // a name's protocol from the lists alone and fetches the part before it
  // builds the run (it is not in the first load).
  for (const [name, view] of [['kleppmann', 'lease-lab'], ['commit-2pc-tm-crash', 'commit-view'], ['multi-calm', 'multi-view']]) {
    const { page, errors } = await open(ctx, { hash: `#run=${name}&seed=5` });
    await page.getByTestId(view).waitFor();
    assert.equal(await page.getByTestId('scenario').inputValue(), name);
    assert.equal(await page.getByTestId('seed').inputValue(), '5');
    assert.equal(await page.getByTestId('toast').count(), 0, `${name}: no toast`);
    assert.deepEqual(errors, [], name);
    await page.context().close();
  }
  // A mistyped name, seed or mutation: the toast names what is wrong, in the
  // page's language, and the calm run is on screen.
  for (const [hash, locale, said] of [
    ['#run=kleppman&seed=5', 'en-US', /no built-in run is named “kleppman” \(run= in the link\)/],
    ['#run=kleppmann&seed=abc', 'en-US', /the seed “abc” is not a whole number/],
    ['#run=calm&seed=1&m=skip-b9', 'en-US', /there is no mutation “skip-b9”/],
    ['#run=kleppman&seed=5', 'ja-JP', /「kleppman」という組み込みの実行はありません/],
  ]) {
    const { page, errors } = await open(ctx, { hash, locale });
    await page.getByTestId('toast').waitFor();
    assert.match(await page.getByTestId('toast').textContent(), said);
    assert.equal(await page.getByTestId('scenario').inputValue(), 'calm');
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('an export or a share link whose writers cannot be fetched says so in a toast; the next try downloads the file and opens the link', async () => {
  let fail = true;
  const { page, errors } = await open(ctx, {
    setup: (page) => page.route(/split_exports\.wasm$/, (route) => (fail ? route.abort('connectionreset') : route.continue())),
  });
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('export-trace').click();
  const toast = page.getByTestId('toast');
  await toast.waitFor();
  assert.match(await toast.textContent(), /The export could not be fetched.*try again/);
  fail = false;
  await page.getByTestId('file-menu').locator('summary').click();
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trace').click()]);
  assert.match(d.suggestedFilename(), /^calm-seed\d+\.trace\.json$/);
  // The share link's deflate is one of the writers.
  fail = true;
  await page.reload();
  await page.waitForSelector('[data-testid=app][data-later=ready]');
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('share').click();
  await toast.waitFor();
  assert.match(await toast.textContent(), /The export could not be fetched.*try again/);
  assert.equal(await page.getByTestId('share-link').count(), 0);
  fail = false;
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('share').click();
  assert.match(await page.getByTestId('share-link').inputValue(), /#s=/);
  const other = errors.filter((e) => !/split_exports|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
  assert.deepEqual(other, []);
});

test('the reader of files, links and saved work is a part: a first visit does without it; a file fetches it, and a failed fetch leaves the work as it was', async () => {
  let fail = true;
  const asked = [];
  const { page, errors, context } = await open(ctx, {
    setup: async (page) => {
      page.on('request', (q) => { const p = partOf(q.url()); if (p) asked.push(p); });
      await page.route(/split_readers\.wasm$/, (route) => (fail ? route.abort('connectionreset') : route.continue()));
    },
  });
  await page.getByTestId('scenario').selectOption('dueling');
  assert.ok(!asked.includes('readers'), 'a first visit has nothing to read');
  const out = spawnSync('cargo', ['run', '--release', '--quiet', '--bin', 'paxos-island', '--', 'export-scenario', 'calm', '--seed', '7'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const file = { name: 'calm.scenario.json', mimeType: 'application/json', buffer: Buffer.from(out.stdout) };
  await page.getByTestId('import-input').setInputFiles(file);
  const toast = page.getByTestId('toast');
  await toast.waitFor();
  assert.match(await toast.textContent(), /reader could not be fetched.*your work is as it was/);
  assert.equal(await page.getByTestId('scenario').inputValue(), 'dueling');
  // The network is back: the same file opens.
  fail = false;
  await page.getByTestId('import-input').setInputFiles(file);
  await page.getByTestId('import-status').waitFor();
  assert.equal(await page.getByTestId('scenario').inputValue(), 'calm');
  assert.equal(await page.getByTestId('seed').inputValue(), '7');
  assert.ok(asked.includes('readers'));
  const other = errors.filter((e) => !/split_readers|Failed to fetch|fetch|ERR_CONNECTION_RESET/i.test(e));
  assert.deepEqual(other, []);

  // Saved work: a reload fetches the reader before drawing, and shows the work.
  await page.getByTestId('scenario').selectOption('lossy');
  await page.waitForTimeout(300);
  asked.length = 0;
  await page.reload();
  await page.getByTestId('app').waitFor();
  assert.equal(await page.getByTestId('scenario').inputValue(), 'lossy');
  assert.ok(asked.includes('readers'));
  // And if it cannot come, the page says so (in both languages) rather than
  // drawing over the saved work.
  fail = true;
  await page.reload();
  const box = page.locator('#panic');
  await box.waitFor();
  assert.match(await box.textContent(), /saved work or of the link could not be fetched.*取得できませんでした/s);
  await context.close();
});
