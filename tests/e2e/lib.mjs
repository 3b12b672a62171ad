// Shared helpers for the end-to-end tests: serve dist/, launch Debian's
// Chromium through playwright-core (no browser download), collect console
// errors so that any test fails on them, and save screenshots as artifacts.
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const ARTIFACTS = join(here, 'artifacts');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function start() {
  const server = await serve(join(ROOT, 'dist'), 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  await mkdir(ARTIFACTS, { recursive: true });
  return { server, browser, url };
}

/// The errors a page reports from now on: console errors, uncaught ones, and
/// any violation of the page's Content-Security-Policy (index.html), which is
/// an error of the test, whatever it tests. Call before the page is opened.
export async function collectErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => {
    console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
  }));
  return errors;
}

/// A fresh page with error collection. `errors` must be empty at the end.
/// `extra` goes to the browser context as it is (hasTouch, isMobile, reducedMotion …);
/// `setup(page)` runs before the page is opened (routes, request listeners).
/// It waits for what comes after the first paint (the side column, the
/// diagram, the dialogs: `Part::Later`) unless `later` is false.
export async function open(ctx, { hash = '', locale = 'en-US', viewport = { width: 1400, height: 900 }, extra = {}, setup, later = true } = {}) {
  const context = await ctx.browser.newContext({ locale, viewport, ...extra });
  const page = await context.newPage();
  const errors = await collectErrors(page);
  if (setup) await setup(page);
  await page.goto(ctx.url + hash);
  await page.waitForSelector(later ? '[data-testid=app][data-later=ready]' : '[data-testid=app]');
  return { page, errors, context };
}

export async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/// Move the cursor to `us` µs with the scrubber (a range over true time) and
/// wait until the page shows that moment.
export async function seek(page, us) {
  await page.getByTestId('scrubber').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, us);
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid=time]').dataset.us) >= v, us, { polling: 50 });
}

/// The run's trace hash in the transport. It is drawn after the first paint
/// (with the `Later` part), so this waits until it is there.
export async function hashOf(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=trace-hash]')?.textContent.trim(), null, { polling: 50 });
  return (await page.getByTestId('trace-hash').textContent()).trim();
}

/// Press Play, wait until the run's time has moved, press it again (paused):
/// the page is running and its Play button answers.
export async function playAndPause(page) {
  await page.getByTestId('play').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=time]').dataset.us) > 0, null, { polling: 50 });
  await page.getByTestId('play').click();
}
