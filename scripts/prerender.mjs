// Writes a picture of the page's first frame into dist/index.html (issue 15:
// the parliament painted before the module has loaded). The built app is
// opened in headless Chromium, once in English and once in Japanese; the
// moment it has drawn its first frame (the top bar, the chamber, the
// transport) that DOM is copied — made static: the values of its fields
// written as attributes, what cannot be seen left out (tooltips, closed
// menus, unselected options, accessibility labels, test ids) — into a
// <template> per language. first-frame.js shows the right one while the
// module loads, inert, and hides it in the task the app draws itself in, so
// the swap is never seen. Nothing of it is written by hand: every build takes
// it afresh from the app it has just built.
// Usage: node scripts/prerender.mjs dist
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '../tests/e2e/node_modules/playwright-core/index.mjs';
import { serve } from '../tests/e2e/serve.mjs';
import { CHROMIUM_ARGS } from '../tests/e2e/lib.mjs';
import { staticCopy } from './first-frame-copy.mjs';

const dist = process.argv[2] ?? 'dist';
const server = await serve(dist, 0);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const url = `http://127.0.0.1:${server.address().port}/`;
const templates = [];
try {
  for (const [lang, locale] of [['en', 'en-US'], ['ja', 'ja-JP']]) {
    const context = await browser.newContext({ locale, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    // The copy is taken just before the first frame is drawn, before
    // anything after it (the background part, the autosave) can change it.
    await page.addInitScript(`(${watch.toString()})(${staticCopy.toString()})`);
    await page.goto(url);
    const html = await page.waitForFunction(() => window.__firstFrame).then((h) => h.jsonValue());
    await context.close();
    templates.push(`<template id="first-frame-${lang}">${html}</template>`);
  }
} finally {
  await browser.close();
  server.close();
}
const index = join(dist, 'index.html');
const page = readFileSync(index, 'utf8');
const marker = '<!-- first-frame -->';
if (!page.includes(marker)) throw new Error(`${index} has no ${marker}`);
writeFileSync(index, page.replace(marker, templates.join('\n')));
console.log(`first frame written into ${index}: ${templates.map((t) => t.length).join(' + ')} characters (en + ja)`);

/// In the page: copy the app's DOM the moment its Play button is in it.
function watch(copy) {
  const mo = new MutationObserver(() => {
    const app = document.querySelector('[data-testid=app]');
    if (!app || !document.querySelector('[data-testid=play]')) return;
    mo.disconnect();
    // After the mount's own effects and animation-frame callbacks, just
    // before the frame is drawn.
    requestAnimationFrame(() => { window.__firstFrame = copy(app); });
  });
  document.addEventListener('DOMContentLoaded', () => mo.observe(document.body, { childList: true, subtree: true }));
}
