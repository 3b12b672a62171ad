// The picture of the first frame (first-frame.js, scripts/prerender.mjs):
// shown while the module loads, inert, in the page's language; the app takes
// its place without a visible change (then it is taken away); and no picture
// where the app's first frame would be another one (a link, saved work, a
// phone).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { start, collectErrors, ARTIFACTS, ROOT } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

/// A page whose module is held back until `release()` (and the background
/// part after the first paint until `releaseLater()`): what it shows
/// meanwhile is the static page.
async function held({ locale = 'en-US', viewport = { width: 1400, height: 900 }, hash = '', storage = {} } = {}) {
  const context = await ctx.browser.newContext({ locale, viewport });
  const page = await context.newPage();
  const errors = await collectErrors(page);
  await page.addInitScript((s) => { for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v); }, storage);
  let release, releaseLater;
  const gate = new Promise((r) => { release = r; });
  const gateLater = new Promise((r) => { releaseLater = r; });
  await page.route(/paxos-island_bg\.wasm$/, async (route) => { await gate; await route.continue(); });
  await page.route(/split_later\.wasm$/, async (route) => { await gateLater; await route.continue(); });
  await page.goto(ctx.url + hash);
  // The page has been parsed and its first-frame script has run.
  await page.waitForFunction(() => document.readyState !== 'loading');
  return { page, context, errors, release, releaseLater };
}

/// How many pixels of two screenshots differ by more than anti-aliasing
/// (any channel by more than 24 of 255).
function differing(a, b) {
  const x = PNG.sync.read(a), y = PNG.sync.read(b);
  assert.equal(x.width, y.width);
  let n = 0;
  for (let i = 0; i < x.data.length; i += 4) {
    if ([0, 1, 2].some((c) => Math.abs(x.data[i + c] - y.data[i + c]) > 24)) n++;
  }
  return n;
}

for (const [name, options, lang, hint] of [
  ['an English browser', {}, 'en', /Press Space/],
  ['a Japanese browser', { locale: 'ja-JP' }, 'ja', /スペース/],
  ['English chosen last time in a Japanese browser', { locale: 'ja-JP', storage: { 'paxos-island:v1:lang': 'en' } }, 'en', /Press Space/],
]) {
  test(`${name}: the first frame is shown, inert, while the module loads; the app replaces it and the page looks the same`, async () => {
    const { page, context, errors, release, releaseLater } = await held(options);
    const frame = page.locator('#first-frame');
    await frame.waitFor();
    assert.equal(await frame.evaluate((el) => el.inert), true, 'the picture takes no clicks or focus');
    assert.equal(await frame.getAttribute('aria-hidden'), 'true');
    // The loading line gave way to it on the screen, not for a screen reader.
    assert.ok((await page.getByTestId('loading').boundingBox()).width <= 1, 'the loading line is out of sight');
    assert.match(await page.getByTestId('loading').textContent(), /Paxos Island/);
    const tree = await page.locator('body').ariaSnapshot();
    assert.match(tree, /Paxos Island …/, 'a screen reader hears the loading line');
    assert.doesNotMatch(tree, /Press Space|スペース/, 'and nothing of the picture');
    assert.equal(await page.getByTestId('play').count(), 0, 'nothing in it is the live page');
    assert.match(await frame.locator('.banner-text').textContent(), hint);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang, 'the page says its language');
    assert.equal(await frame.locator('[lang=ja]').count() + await frame.locator('[lang=en]').count(), 1, 'its language button names the other language');
    assert.match(await frame.locator('[lang]').getAttribute('lang'), lang === 'en' ? /ja/ : /en/);
    const picture = await page.screenshot({ path: join(ARTIFACTS, `first-frame-${lang}-${options.storage ? 'chosen' : 'browser'}.png`) });
    release();
    await page.getByTestId('play').waitFor();
    // Hidden in the task that drew the app (its background part held back),
    // the loading line gone.
    assert.equal(await frame.getAttribute('class'), 'gone');
    assert.equal(await page.locator('#loading').count(), 0);
    assert.equal(await frame.locator('.app').isVisible(), false, 'the app took its place');
    // The chamber's hint as the app draws it: the same words.
    assert.match(await page.getByTestId('parliament').locator('.banner-text').textContent(), hint);
    // The first frame as the app draws it (its background part held back).
    assert.equal(await page.getByTestId('app').getAttribute('data-later'), 'loading');
    const live = await page.screenshot();
    assert.equal(differing(picture, live), 0, 'the picture and the app\'s first frame differ');
    await page.getByTestId('play').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=time]').dataset.us) > 0, null, { polling: 50 });
    // Taken away once the page is whole.
    releaseLater();
    await page.locator('[data-testid=app][data-later=ready]').waitFor();
    assert.equal(await frame.count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [name, options] of [
  ['a share link', { hash: '#s=not-a-real-link' }],
  ['a lesson link', { hash: '#lesson=phases&step=3' }],
  ['saved work', { storage: { 'paxos-island:v1:work': '{}' } }],
  ['"show what comes next" saved on', { storage: { 'paxos-island.whole-run': '1' } }],
  ['a phone', { viewport: { width: 390, height: 800 } }],
]) {
  test(`no picture of the first frame for ${name}: the loading line stays until the app is drawn`, async () => {
    const { page, context, release, releaseLater } = await held(options);
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#first-frame').count(), 0);
    assert.equal(await page.getByTestId('loading').isVisible(), true);
    release();
    releaseLater();
    await page.getByTestId('app').waitFor();
    assert.equal(await page.getByTestId('loading').count(), 0);
    await context.close();
  });
}

test('the built page carries the first frame in both languages, without test ids, ids or labels', () => {
  const html = readFileSync(join(ROOT, 'dist/index.html'), 'utf8');
  for (const lang of ['en', 'ja']) {
    const t = html.match(new RegExp(`<template id="first-frame-${lang}">([^]*?)</template>`))?.[1];
    assert.ok(t, `no first frame for ${lang}`);
    assert.match(t, /class="parliament"/);
    assert.match(t, /class="btn transport-btn play"/);
    assert.doesNotMatch(t, /data-testid=|aria-label=| id="(?!arrow)/);
  }
});
