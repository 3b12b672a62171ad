// Manual helper: node tests/e2e/dev.mjs NAME 'js to run' — run steps, screenshot.
import { start, open, shot } from './lib.mjs';
const [name = 'dev', script = '', locale = 'en-US'] = process.argv.slice(2);
const ctx = await start();
const { page, errors } = await open(ctx, { locale });
if (script) await eval(`(async () => { ${script} })()`);
await page.waitForTimeout(300);
await shot(page, name);
console.log(errors.length ? errors.join('\n') : 'no console errors');
await ctx.browser.close();
ctx.server.close();
