// Accessibility: axe-core (from npm) audits every tab and dialog, in both
// languages, and finds no serious or critical violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { start, open } from './lib.mjs';

const AXE = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

/** The serious and critical violations on the page as it stands, one line each. */
async function audit(page) {
  // Evaluated through the debugging protocol, not as an inline script: the
  // page's Content-Security-Policy (rightly) refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

for (const locale of ['en-US', 'ja-JP']) {
  test(`every tab and dialog (${locale}) has no serious or critical axe-core violation`, async () => {
    const { page, errors } = await open(ctx, { locale });
    const found = {};
    const check = async (what) => {
      const v = await audit(page);
      if (v.length) found[what] = v;
    };
    await check('parliament');
    // A legislator selected: the inspector and its fault buttons.
    await page.getByTestId('seat-0').click();
    await check('parliament, a seat selected');
    await page.keyboard.press('Escape');
    await page.getByTestId('modelcheck').locator('summary').click();
    await check('model checker open');
    for (const [tab, scenario] of [['tab-multi', 'chubby-sequencer'], ['tab-lease', null], ['tab-commit', null], ['tab-ballots', null]]) {
      await page.getByTestId(tab).click();
      if (scenario) await page.getByTestId('scenario').selectOption(scenario);
      await page.keyboard.press('End');
      await check(tab);
    }
    await page.getByTestId('file-menu').locator('summary').click();
    await check('file menu open');
    await page.getByTestId('share').click();
    await page.getByTestId('share-dialog').waitFor();
    await check('share dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('help-button').click();
    await page.getByTestId('help').waitFor();
    await check('help');
    await page.keyboard.press('Escape');
    await page.getByTestId('present').click();
    await page.getByTestId('qr-button').click();
    await page.getByTestId('qr-panel').waitFor();
    await check('presenter mode with the QR code');
    await page.getByTestId('qr-close').click();
    await page.getByTestId('present').click();
    // A lesson: its list, a question, its explanation.
    await page.getByTestId('tab-lessons').click();
    await check('lessons');
    await page.goto(ctx.url + '#lesson=where-paxos-lives&step=5');
    await page.getByTestId('predict').waitFor();
    await check('a lesson question');
    await page.getByTestId('option-1').check();
    await page.getByTestId('answer').click();
    await page.getByTestId('explanation').waitFor({ timeout: 30000 });
    await check('a lesson explanation');
    assert.deepEqual(found, {});
    assert.deepEqual(errors, []);
  });
}
