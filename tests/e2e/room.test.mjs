// For the room and for the phone: the future stays hidden until asked for,
// speeds that tell a lease story in well under a minute, seats that stay
// selected, still messengers for reduced motion, a presenter's chamber the
// back row can read, and a phone-sized page that works with a thumb.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, shot, seek, hashOf } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

const PHONE = { viewport: { width: 390, height: 844 }, extra: { hasTouch: true, isMobile: true } };
const box = (loc) => loc.boundingBox();

test('the diagrams stop at the cursor unless the whole run is asked for, and the choice is remembered', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('tab-lease').click();
  // At t = 0 the fog covers all of the lanes past the cursor.
  const fog = page.getByTestId('lanes').getByTestId('fog');
  const cursor = page.getByTestId('lanes').locator('line.cursor');
  const [f, c, l] = [await box(fog), await box(cursor), await box(page.getByTestId('lanes'))];
  assert.ok(Math.abs(f.x - c.x) < 3, `the fog starts at ${f.x}, the cursor at ${c.x}`);
  assert.ok(f.x + f.width >= l.x + l.width - 2, 'the fog stops short of the lanes\' end');
  // Halfway, it has moved with the cursor.
  await seek(page, Math.round(7.5e6));
  const f2 = await box(fog);
  assert.ok(f2.x > f.x + 100, 'the fog did not follow the cursor');
  await shot(page, 'room-lease-fog');
  // The whole run, on request; kept over a reload.
  await page.getByTestId('whole-run').check();
  assert.equal(await page.getByTestId('fog').count(), 0);
  await page.reload();
  await page.getByTestId('tab-lease').click();
  assert.equal(await page.getByTestId('whole-run').isChecked(), true);
  assert.equal(await page.getByTestId('fog').count(), 0);
  // The parliament's space-time diagram has the same fog.
  await page.getByTestId('whole-run').uncheck();
  await page.getByTestId('tab-parliament').click();
  assert.equal(await page.getByTestId('spacetime').getByTestId('fog').count(), 1);
  assert.deepEqual(errors, []);
});

test('even with the whole run shown, an open question fogs what comes after it', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('whole-run').check();
  await page.goto(ctx.url + '#lesson=llm-lease&step=2');
  await page.getByTestId('predict').waitFor();
  // The lanes are the lease lab's part: wait for them to be drawn.
  const fog = page.getByTestId('lanes').getByTestId('fog');
  await fog.waitFor();
  assert.ok(await fog.isVisible());
  await page.getByTestId('option-0').check();
  await page.getByTestId('answer').click();
  await page.getByTestId('explanation').waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('fog').count(), 0, 'answered, the whole run shows again');
  assert.deepEqual(errors, []);
});

test('a lease story opens at a speed that plays it in well under a minute, with the injection in view', async () => {
  const { page, errors } = await open(ctx, { viewport: { width: 1280, height: 800 } });
  await page.getByTestId('tab-lease').click();
  await page.getByTestId('scenario').selectOption('llm-in-loop');
  // ×1.5: 30 simulated seconds in 20 real ones (it was ×0.1: five minutes).
  assert.equal((await page.getByTestId('speed-label').textContent()).trim(), '×1.5');
  const inject = await box(page.getByTestId('side-inject').getByTestId('inject-llm-stall'));
  assert.ok(inject && inject.y + inject.height <= 800, `"Inject" is out of view (${JSON.stringify(inject)})`);
  // Back in the parliament, messengers are slow enough to follow again.
  await page.getByTestId('tab-parliament').click();
  assert.equal((await page.getByTestId('speed-label').textContent()).trim(), '×0.1');
  await shot(page, 'room-lease-1280');
  assert.deepEqual(errors, []);
});

test('clicking a selected seat keeps its Crash and Restart; Close deselects', async () => {
  const { page, errors } = await open(ctx);
  const seat = page.locator('[data-testid=seat-0] circle.seat');
  await seat.click();
  await page.getByTestId('crash').waitFor();
  await seat.click();
  assert.ok(await page.getByTestId('crash').isVisible(), 'the second click hid the Crash button');
  await page.getByTestId('deselect').click();
  assert.equal(await page.getByTestId('crash').count(), 0);
  assert.deepEqual(errors, []);
});

test('with reduced motion a messenger stands still in flight, and moves without it', async () => {
  const place = async (extra) => {
    const { page, errors, context } = await open(ctx, { extra });
    const at = async (us) => {
      await seek(page, us);
      return JSON.stringify(await page.locator('[data-testid=messengers] > g').first().boundingBox());
    };
    // Α's prepares are in flight from 0 to about 60 ms.
    const [a, b] = [await at(5_000), await at(40_000)];
    assert.deepEqual(errors, []);
    await context.close();
    return [a, b];
  };
  const [sa, sb] = await place({ reducedMotion: 'reduce' });
  assert.equal(sa, sb, 'a messenger moved with reduced motion on');
  const [ma, mb] = await place({ reducedMotion: 'no-preference' });
  assert.notEqual(ma, mb, 'messengers do not move at all');
});

test('a messenger walks from its sender\'s seat to its receiver\'s, on screen where the run says', async () => {
  const { page, errors, context } = await open(ctx);
  const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
  const seat = async (i) => centre(await page.locator(`[data-testid=seat-${i}] circle.seat`).boundingBox());
  const radius = (await page.locator('[data-testid=seat-0] circle.seat').boundingBox()).width / 2;
  const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
  // Α's prepares set out at 0: a millisecond later each stands on Α's seat.
  await seek(page, 1_000);
  const prepares = page.locator('[data-testid=messenger][data-kind=prepare]');
  const n = await prepares.count();
  assert.ok(n >= 2, `${n} prepares in flight`);
  const alpha = await seat(0);
  for (let i = 0; i < n; i++) {
    const d = dist(centre(await prepares.nth(i).boundingBox()), alpha);
    assert.ok(d < radius / 2, `prepare ${i} is ${d.toFixed(1)} px from Α's seat`);
  }
  // Then each walks to its receiver: it leaves Α's seat, and its last place
  // before it is gone (millisecond by millisecond) is on the receiver's seat.
  const to = await prepares.first().getAttribute('data-to');
  const one = page.locator(`[data-testid=messenger][data-kind=prepare][data-to="${to}"]`);
  let last = null, us = 1_000, moved = false;
  while (us < 500_000) {
    us += 1_000;
    await seek(page, us);
    if (await one.count() === 0) break;
    const at = centre(await one.boundingBox());
    if (dist(at, alpha) > radius) moved = true;
    last = at;
  }
  assert.ok(moved && last, `the prepare to ${to} never left Α's seat`);
  const d = dist(last, await seat(Number(to)));
  assert.ok(d < radius / 2, `the prepare to ${to} was last seen ${d.toFixed(1)} px from its receiver`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('presenter mode at 1920×1080: the ledgers are listed in type the back row can read', async () => {
  for (const locale of ['en-US', 'ja-JP']) {
    const { page, errors, context } = await open(ctx, { locale, viewport: { width: 1920, height: 1080 } });
    await page.keyboard.press('p');
    await page.getByTestId('ledger-list').waitFor();
    const size = await page.getByTestId('ledger-row-0').locator('.ink').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(size >= 24, `ledger text ${size}px`);
    // The tools stand in one row of one height, the File menu's button too
    // (it stood higher and smaller than its neighbours).
    const tools = await page.evaluate(() => [...document.querySelectorAll('.tools > *')]
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => (e.tagName === 'DETAILS' ? e.querySelector('summary') : e).getBoundingClientRect())
      .map((r) => [Math.round(r.top), Math.round(r.height)]));
    assert.equal(new Set(tools.map(String)).size, 1, `the tools' tops and heights: ${JSON.stringify(tools)}`);
    await page.keyboard.press('Space');
    await page.waitForTimeout(1500);
    await shot(page, `room-presenter-${locale}`);
    // In a lesson too.
    await page.goto(ctx.url + '#lesson=phases&step=2');
    await page.getByTestId('ledger-list').waitFor();
    await shot(page, `room-presenter-lesson-${locale}`);
    // Leaving presenter mode brings the cards back; large type lists them too.
    await page.keyboard.press('Escape');
    assert.equal(await page.getByTestId('ledger-list').count(), 0);
    await page.getByTestId('large').click();
    await page.getByTestId('ledger-list').waitFor();
    const large = await page.getByTestId('ledger-row-0').locator('.ink').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(large >= 24, `ledger text with large type ${large}px`);
    await page.getByTestId('large').click();
    assert.deepEqual(errors, []);
    await context.close();
  }
});

for (const locale of ['en-US', 'ja-JP']) {
  test(`a phone (${locale}, 390×844): the whole chamber, seats to tap, controls in thumb's reach, touch words, no sideways scroll`, async () => {
    const { page, errors } = await open(ctx, { locale, ...PHONE });
    const wide = () => page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(await wide() <= 390, `the page scrolls sideways (${await wide()} px)`);
    // Every tab is in sight (a row that scrolled hid Ballots and Lessons, and nothing said so).
    for (const t of ['parliament', 'multi', 'lease', 'commit', 'ballots', 'lessons']) {
      const b = await box(page.getByTestId(`tab-${t}`));
      assert.ok(b.x >= 0 && b.x + b.width <= 390, `the ${t} tab at ${JSON.stringify(b)}`);
    }
    // Every seat is inside the screen and big enough for a finger.
    for (let i = 0; i < 5; i++) {
      const b = await box(page.locator(`[data-testid=seat-${i}] circle.seat`));
      assert.ok(b.x >= 0 && b.x + b.width <= 390 && b.y + b.height <= 844, `seat ${i} at ${JSON.stringify(b)}`);
      assert.ok(b.width >= 30, `seat ${i} is ${b.width} px wide`);
    }
    // The hint speaks of tapping.
    assert.match(await page.getByTestId('banner').textContent(), locale.startsWith('ja') ? /タップ/ : /Tap/);
    // Play sits in the bar at the bottom of the screen.
    const play = await box(page.getByTestId('play'));
    assert.ok(play.y > 844 - 180 && play.y + play.height <= 844 && play.height >= 44, `Play at ${JSON.stringify(play)}`);
    await shot(page, `room-phone-${locale}`);
    // The File menu opens on the screen, every item of it (it opened
    // leftwards from its button, off the screen's left edge).
    await page.getByTestId('file-menu').locator('summary').tap();
    const menu = await box(page.getByTestId('file-menu').locator('.menu-items'));
    assert.ok(menu.x >= 0 && menu.x + menu.width <= 390, `the File menu at ${JSON.stringify(menu)}`);
    await page.getByTestId('file-menu').locator('summary').tap();
    // A tap on a seat selects it; its Crash button appears under the
    // chamber, on screen without scrolling, and Restart takes its place.
    await page.locator('[data-testid=seat-4] circle.seat').tap();
    const crash = await box(page.getByTestId('row-crash'));
    assert.ok(crash.y + crash.height <= 844 - 100 && crash.height >= 44, `Crash at ${JSON.stringify(crash)}`);
    await page.getByTestId('row-crash').tap();
    assert.equal(await page.getByTestId('seat-4').getAttribute('data-status'), 'away');
    await page.getByTestId('row-restart').waitFor();
    // The ledgers are listed, readable, under the chamber.
    const size = await page.getByTestId('ledger-row-0').locator('.ink').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(size >= 14, `ledger text ${size}px`);
    await page.getByTestId('play').tap();
    await page.waitForTimeout(2500);
    await shot(page, `room-phone-playing-${locale}`);
    // The lease lab and a lesson work.
    await page.getByTestId('tab-lease').tap();
    await page.getByTestId('lanes').waitFor();
    assert.ok(await wide() <= 390, 'the lease lab scrolls sideways');
    await shot(page, `room-phone-lease-${locale}`);
    await page.getByTestId('tab-lessons').scrollIntoViewIfNeeded();
    await page.getByTestId('tab-lessons').tap();
    await page.getByTestId('start-phases').tap();
    await page.getByTestId('player').waitFor();
    await page.getByTestId('step-next').tap();
    await page.getByTestId('step-next').tap();
    await page.getByTestId('step-next').tap();
    await page.getByTestId('predict').waitFor();
    assert.ok(await wide() <= 390, 'the lesson scrolls sideways');
    await page.getByTestId('option-1').tap();
    await page.getByTestId('answer').tap();
    await page.getByTestId('to-end').tap();
    await page.getByTestId('explanation').waitFor({ timeout: 20000 });
    await page.getByTestId('explanation').scrollIntoViewIfNeeded();
    await shot(page, `room-phone-lesson-${locale}`);
    assert.deepEqual(errors, []);
  });
}

/// The QR code on screen, read back from a screenshot as a phone would.
async function scanQr(page) {
  const { PNG } = await import('pngjs');
  const jsQR = (await import('jsqr')).default;
  const png = PNG.sync.read(await page.getByTestId('qr-code').screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  assert.ok(code, 'no QR code could be read from the screenshot');
  return code.data;
}

test('presenting on a 1024×768 projector, the scenario and "Break the algorithm" stay within reach; the seed and Large type step aside', async () => {
  const { page, errors } = await open(ctx, { viewport: { width: 1024, height: 768 } });
  await page.keyboard.press('p');
  await page.locator('.app.presenter').waitFor();
  assert.ok(await page.getByTestId('scenario').isVisible(), 'the scenario picker is hidden while presenting');
  assert.ok(await page.getByTestId('mutation').isVisible(), '"Break the algorithm" is hidden while presenting');
  assert.equal(await page.getByTestId('seed').isVisible(), false);
  // Presenter mode is large type already: a Large type button there did nothing.
  assert.equal(await page.getByTestId('large').isVisible(), false);
  // The pickers keep their names for a screen reader, and the bar stays one short band.
  assert.equal(await page.getByRole('combobox', { name: 'Scenario' }).count(), 1);
  const bar = await page.locator('.topbar').boundingBox();
  assert.ok(bar.height < 768 * 0.25, `the top bar is ${bar.height}px high`);
  await page.getByTestId('scenario').selectOption('dueling');
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario]').value === 'dueling');
  assert.ok(await page.locator('.app.presenter').count(), 'still presenting');
  // The narration's words stay inside its column (a long word ran past its edge).
  await page.keyboard.press('End');
  const over = await page.getByTestId('narration').evaluate((n) => {
    const edge = n.getBoundingClientRect().right;
    return [...n.querySelectorAll('.line > *')].filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > edge + 1).map((e) => e.textContent);
  });
  assert.deepEqual(over, []);
  await shot(page, 'room-presenter-1024');
  assert.deepEqual(errors, []);
});

test('a browser that refuses full screen leaves presenter mode in the window, not on the crash screen', async () => {
  // A page not in front, a policy or a frame: requestFullscreen's promise is refused.
  const setup = (page) => page.addInitScript(() => {
    Element.prototype.requestFullscreen = function () { return Promise.reject(new TypeError('not granted')); };
  });
  const { page, errors } = await open(ctx, { setup });
  await page.keyboard.press('p');
  assert.match(await page.getByTestId('app').getAttribute('class'), /presenter/);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#panic').isVisible(), false, 'the crash screen is up');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=time]').dataset.us) > 0);
  await page.keyboard.press('p');
  assert.doesNotMatch(await page.getByTestId('app').getAttribute('class'), /presenter/);
  assert.deepEqual(errors, []);
});

test('presenter mode shows a QR code of the moment on screen; scanned, it opens that moment', async () => {
  const { page, errors } = await open(ctx, { viewport: { width: 1920, height: 1080 } });
  // A built-in run with a changed seed, at 350 ms: the short link.
  await page.getByTestId('seed').fill('7');
  await page.getByTestId('seed-apply').click();
  await seek(page, 350_000);
  await page.keyboard.press('p');
  await page.keyboard.press('q');
  await page.getByTestId('qr-panel').waitFor();
  await shot(page, 'room-qr-presenter');
  const link = await scanQr(page);
  assert.equal(link, (await page.getByTestId('qr-link').textContent()).trim());
  assert.match(link, /#run=calm&seed=7&t=350000$/);
  const hash = (await hashOf(page));
  // A student's phone opens it.
  const phone = await open(ctx, { ...PHONE });
  await phone.page.goto(link);
  await phone.page.getByTestId('app').waitFor();
  assert.equal(await phone.page.getByTestId('time').getAttribute('data-us'), '350000');
  assert.equal((await hashOf(phone.page)), hash);
  await shot(phone.page, 'room-qr-opened-on-phone');
  // A run with an injected crash travels as a full share link, with its time.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.locator('[data-testid=seat-2] circle.seat').click();
  await page.getByTestId('crash').click();
  await seek(page, 420_000);
  await page.keyboard.press('p');
  await page.keyboard.press('q');
  const full = await scanQr(page);
  assert.match(full, /#s=s1\.[^&]+&t=420000$/);
  const hash2 = (await hashOf(page));
  await phone.page.goto('about:blank');
  await phone.page.goto(full);
  await phone.page.getByTestId('app').waitFor();
  assert.equal(await phone.page.getByTestId('time').getAttribute('data-us'), '420000');
  assert.equal((await hashOf(phone.page)), hash2);
  // In a lesson: the step and the moment.
  await page.keyboard.press('Escape');
  await page.goto(ctx.url + '#lesson=dueling&step=2');
  await page.getByTestId('player').waitFor();
  await seek(page, 400_000);
  await page.getByTestId('qr-button').click();
  const lesson = await scanQr(page);
  assert.match(lesson, /#lesson=dueling&step=2&t=400000$/);
  await phone.page.goto('about:blank');
  await phone.page.goto(lesson);
  await phone.page.getByTestId('player').waitFor();
  assert.match(await phone.page.getByTestId('step-count').textContent(), /2 \/ 4/);
  await phone.page.waitForFunction(() => document.querySelector('[data-testid=time]').dataset.us === '400000');
  // An odd short link is named, not ignored.
  await phone.page.goto('about:blank');
  await phone.page.goto(ctx.url + '#run=no-such-run&seed=1');
  await phone.page.getByTestId('toast').waitFor();
  assert.match(await phone.page.getByTestId('toast').textContent(), /no-such-run/);
  assert.deepEqual(errors, []);
  assert.deepEqual(phone.errors, []);
});

test('every figure fits its labels in their boxes, in both languages, at a laptop\'s and a phone\'s width', async () => {
  const figures = ['#lesson=network&step=2', '#lesson=llm-lease&step=1'];
  for (const locale of ['en-US', 'ja-JP']) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }]) {
      const { page, errors, context } = await open(ctx, { locale, viewport });
      for (const hash of figures) {
        await page.goto(ctx.url + hash);
        await page.getByTestId('figure').waitFor();
        const spill = await page.evaluate(() => [...document.querySelectorAll('.fig-boxed')].flatMap((g) => {
          const r = g.querySelector('rect').getBBox();
          const t = g.querySelector('text').getBBox();
          const inside = t.x >= r.x + 1 && t.x + t.width <= r.x + r.width - 1 && t.y >= r.y && t.y + t.height <= r.y + r.height;
          return inside ? [] : [`${g.textContent} (${Math.round(t.width)} in ${Math.round(r.width)})`];
        }));
        assert.deepEqual(spill, [], `${hash} ${locale} ${viewport.width}: labels spill out of their boxes`);
        assert.ok(await page.locator('.fig-boxed').count() >= 5);
      }
      await shot(page, `room-figure-${locale}-${viewport.width}`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

test('large type and presenter mode reach inside the lanes; the lease lab\'s charts take the whole row', async () => {
  const { page, errors } = await open(ctx, { viewport: { width: 1920, height: 1080 } });
  await page.getByTestId('tab-lease').click();
  const size = (sel) => page.locator(sel).first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  const normal = await size('[data-testid=lanes] .tick-label');
  const charts = await box(page.getByTestId('charts'));
  const lanes = await box(page.getByTestId('pane-a'));
  assert.ok(charts.width >= lanes.width - 20, `the charts take ${charts.width} of ${lanes.width} px`);
  await page.getByTestId('large').click();
  assert.ok(await size('[data-testid=lanes] .tick-label') >= normal * 1.3, 'large type left the lanes alone');
  await page.getByTestId('large').click();
  await page.getByTestId('present').click();
  assert.ok(await size('[data-testid=lanes] .row-name') >= 18);
  assert.deepEqual(errors, []);
});

test('the page runs under its Content-Security-Policy, which refuses inline script', async () => {
  const { page, errors } = await open(ctx);
  const csp = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  // The app is running (under the policy) …
  await page.getByTestId('play').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=time]').dataset.us) > 0, null, { polling: 50 });
  // … and an inline script is refused, and reported.
  await page.evaluate(() => { const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s); });
  assert.equal(await page.evaluate(() => window.__inline), undefined);
  assert.ok(errors.some((e) => /CSP violation: script-src/.test(e)), `no violation reported: ${errors}`);
  // Nothing else went wrong (Chromium adds its own line about the same refusal).
  assert.deepEqual(errors.filter((e) => !/CSP violation: script-src(-elem)? blocked inline|Executing inline script violates/.test(e)), []);
});
