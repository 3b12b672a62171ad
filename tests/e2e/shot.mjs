// Manual helper: node tests/e2e/shot.mjs NAME [HASH] — screenshot of the built app.
import { start, open, shot } from './lib.mjs';
const [name = 'manual', hash = '', locale = 'en-US'] = process.argv.slice(2);
const ctx = await start();
const { page, errors } = await open(ctx, { hash, locale });
await page.waitForTimeout(500);
await shot(page, name);
console.log(errors.length ? errors.join('\n') : 'no console errors');
await ctx.browser.close();
ctx.server.close();
