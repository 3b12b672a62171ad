// Traces recorded live on a real PostgreSQL and a real etcd (by
// scripts/db-tests.sh, which scripts/test.sh runs first and which leaves them
// in $LIVE_TRACES_DIR) open in the page as recorded runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { start, open, shot } from './lib.mjs';

const dir = process.env.LIVE_TRACES_DIR;
let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

async function openTrace(page, name) {
  const path = join(dir, name);
  assert.ok(existsSync(path), `${path} is missing: scripts/db-tests.sh records it`);
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('import-input').setInputFiles(path);
  await page.getByTestId('lease-lab').waitFor();
  await page.keyboard.press('End');
}

test('a live PostgreSQL run opens as recorded: the stalled worker\'s write refused, with the SQL', { skip: !dir && 'LIVE_TRACES_DIR is not set (scripts/test.sh sets it)' }, async () => {
  const { page, errors } = await open(ctx);
  await openTrace(page, 'pg-live.trace.json');
  await page.getByText(/Recorded live on a real PostgreSQL \d+/).waitFor();
  await page.locator('[data-testid=write-rejected]').first().waitFor();
  assert.ok(await page.locator('[data-testid=write-rejected][data-reason]').count() >= 1);
  assert.match(await page.getByTestId('sql-orders').getByTestId('sql-statement').textContent(), /UPDATE orders o/);
  await shot(page, 'live-pg');
  assert.deepEqual(errors, []);
});

test('without the fence, the live PostgreSQL run shows the stale write landing', { skip: !dir && 'LIVE_TRACES_DIR is not set' }, async () => {
  const { page, errors } = await open(ctx);
  await openTrace(page, 'pg-live-off.trace.json');
  await page.locator('[data-testid=write-dead], [data-testid=write-damaged]').first().waitFor();
  assert.equal(await page.getByTestId('inv-fencing-monotonic').getAttribute('data-state'), 'broken');
  assert.deepEqual(errors, []);
});

test('a live etcd run opens as recorded, and says its steps are not SQL', { skip: !dir && 'LIVE_TRACES_DIR is not set' }, async () => {
  const { page, errors } = await open(ctx);
  await openTrace(page, 'etcd-live.trace.json');
  await page.getByText(/Recorded live on a real etcd 3\./).waitFor();
  await page.locator('[data-testid=write-rejected]').first().waitFor();
  await page.getByTestId('sql-etcd').waitFor();
  assert.match(await page.getByTestId('pane-a').locator('.pane-title').textContent(), /lease key's revision/);
  await shot(page, 'live-etcd');
  assert.deepEqual(errors, []);
});
