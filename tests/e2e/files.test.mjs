// Traces in and out of the page: export, import, share links, autosave,
// other formats — and every kind of bad input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, open, shot, ROOT, hashOf, seek } from './lib.mjs';

let ctx;
const dir = mkdtempSync(join(tmpdir(), 'paxos-island-e2e-'));
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

const cli = (...args) => spawnSync('cargo', ['run', '--release', '--quiet', '--bin', 'paxos-island', '--', ...args],
  { cwd: ROOT, encoding: 'utf8' });

async function download(page, testid) {
  await page.getByTestId('file-menu').locator('summary').click();
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const path = join(dir, d.suggestedFilename());
  await d.saveAs(path);
  return path;
}

async function importFile(page, path) {
  await page.getByTestId('import-input').setInputFiles(path);
}

test('browser → CLI: an exported trace replays and verifies on the command line', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('scenario').selectOption('lossy');
  await page.getByTestId('seed').fill('11');
  await page.getByTestId('seed-apply').click();
  const path = await download(page, 'export-trace');
  const out = cli('replay', path, '--verify');
  assert.equal(out.status, 0, out.stdout + out.stderr);
  assert.match(out.stdout, new RegExp(`verified .*hash ${await hashOf(page)}`));
  assert.deepEqual(errors, []);
});

test('CLI → browser → CLI: the same events all the way round, with a verified replay', async () => {
  const original = join(dir, 'cli-forced.trace.json');
  const out = cli('run', '--scenario', 'forced', '--seed', '5', '--out', original);
  assert.equal(out.status, 0, out.stderr);
  const cliHash = out.stdout.match(/trace hash ([0-9a-f]{16})/)[1];
  const { page, errors } = await open(ctx);
  await importFile(page, original);
  await page.getByText('Verified replay').waitFor();
  assert.equal(await hashOf(page), cliHash);
  const again = await download(page, 'export-trace');
  assert.deepEqual(JSON.parse(readFileSync(again, 'utf8')).events, JSON.parse(readFileSync(original, 'utf8')).events);
  // The previous work is one click away.
  const bar = async () => [(await page.getByTestId('import-status').locator('span').first().textContent()).trim(), (await page.getByTestId('restore-previous').textContent()).trim()];
  assert.match((await bar())[1], /^Restore my previous work$/);
  await page.getByTestId('restore-previous').click();
  const mine = await hashOf(page);
  assert.notEqual(mine, cliHash);
  // The bar says what happened, and its button now undoes it (it offered to
  // "restore my previous work" again, and swapped the file back in).
  assert.deepEqual(await bar(), ['Your previous work is back; what you opened is kept.', 'Back to what I opened']);
  await page.getByTestId('restore-previous').click();
  assert.equal(await hashOf(page), cliHash);
  assert.deepEqual(await bar(), ['Your previous work is kept.', 'Restore my previous work']);
  await page.getByTestId('restore-previous').click();
  assert.equal(await hashOf(page), mine);
  await shot(page, 'files-verified-import');
  assert.deepEqual(errors, []);
});

// A file opened in the middle of a lesson, then the previous work restored:
// back in the lesson at its step (it came back on the parliament's tab).
test('restoring the work an import replaced returns to the lesson it was in', async () => {
  const path = join(dir, 'cli-calm.trace.json');
  assert.equal(cli('run', '--scenario', 'calm', '--out', path).status, 0);
  const { page, errors } = await open(ctx, { hash: '#lesson=phases&step=3' });
  await page.getByTestId('step').waitFor();
  const title = (await page.getByTestId('step-title').textContent()).trim();
  await importFile(page, path);
  await page.getByText('Verified replay').waitFor();
  assert.equal(await page.getByTestId('step').count(), 0);
  await page.getByTestId('restore-previous').click();
  await page.getByTestId('step').waitFor();
  assert.equal((await page.getByTestId('step-title').textContent()).trim(), title);
  assert.match((await page.getByTestId("step-count").textContent()).trim(), /^Step 3 \//);
  // And the file is one click away again, on its own tab.
  await page.getByTestId('restore-previous').click();
  await page.getByTestId('parliament').waitFor();
  assert.equal(await page.getByTestId('step').count(), 0);
  assert.deepEqual(errors, []);
});

// Every protocol's trace goes round: Multi-Paxos's once wrote a note field
// over the event's own seq, and no Multi-Paxos trace would open again.
test('Multi-Paxos and commit: the exported trace verifies on the command line and opens again in the page', async () => {
  for (const [tab, name] of [['tab-multi', 'multi-leader-crash'], ['tab-multi', 'master-lease'], ['tab-commit', 'commit-paxos-tm-crash']]) {
    const { page, errors } = await open(ctx);
    await page.getByTestId(tab).click();
    await page.getByTestId('scenario').selectOption(name);
    await page.waitForFunction((n) => document.querySelector('[data-testid=scenario]').value === n, name);
    const hash = await hashOf(page);
    const path = await download(page, 'export-trace');
    const out = cli('replay', path, '--verify');
    assert.equal(out.status, 0, `${name}: ${out.stdout}${out.stderr}`);
    assert.match(out.stdout, new RegExp(`verified .*hash ${hash}`), name);
    await page.getByTestId('tab-parliament').click();
    await importFile(page, path);
    await page.getByText('Verified replay').waitFor();
    assert.equal(await hashOf(page), hash, name);
    assert.deepEqual(errors, [], name);
    await page.close();
  }
});

test('a share link reproduces the run exactly, at the moment it was shared; a cut, edited or unknown address is refused with the reason', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('scenario').selectOption('partition-heal');
  await page.getByTestId('seed').fill('77');
  await page.getByTestId('seed-apply').click();
  const hash = await hashOf(page);
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /#s=s1\./);
  await shot(page, 'files-share-dialog');
  const fresh = await ctx.browser.newContext();
  const p2 = await fresh.newPage();
  const e2 = [];
  p2.on('console', (m) => { if (m.type() === 'error') e2.push(m.text()); });
  await p2.goto(link);
  await p2.getByTestId('app').waitFor();
  assert.equal(await hashOf(p2), hash);
  // Shared at a moment, the link opens at that moment (it opened at 0).
  await page.keyboard.press('Escape');
  await seek(page, 50000);
  const now = await page.getByTestId('time').getAttribute('data-us');
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('share').click();
  const atMoment = await page.getByTestId('share-link').inputValue();
  assert.ok(atMoment.endsWith(`&t=${now}`), atMoment);
  // The dialog keeps the page's keys: Space after Copy does not play the run behind it.
  await page.getByTestId('copy-link').click();
  await page.keyboard.press('Space');
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('time').getAttribute('data-us'), now);
  assert.equal(await page.getByTestId('play').getAttribute('aria-label'), 'Play');
  await p2.goto('about:blank');
  await p2.goto(atMoment);
  await p2.waitForFunction((t) => document.querySelector('[data-testid=time]')?.dataset.us === t, now);
  assert.equal(await hashOf(p2), hash);
  // Cut short, and one character changed: both refused, the page still works.
  // A character no link contains is named; an address we do not know is said, not ignored.
  const base = link.slice(0, link.indexOf('#'));
  for (const [bad, why] of [
    [link.slice(0, link.length - 9), /cut short/],
    [link.replace(/s1\.(.)/, (m, c) => `s1.${c === 'A' ? 'B' : 'A'}`), /changed or mistyped/],
    // A refused link's moment is not shown either (it moved the cursor).
    [`${link.replace(/s1\.(.)/, (m, c) => `s1.${c === 'A' ? 'B' : 'A'}`)}&t=2500000`, /changed or mistyped/],
    [`${base}#run=calm&seed=99999999999999999999999`, /the seed “99999999999999999999999” is not a whole number from 0 to 18446744073709551615/],
    [`${base}#s=s1.%%%zz`, /"%", a character no Paxos Island link contains|'%', a character no Paxos Island link contains/],
    [`${base}#hello`, /Nothing here opens “#hello”/],
    [`${base}#lesson=no-such-lesson`, /there is no lesson “no-such-lesson” \(lesson= in the link/],
  ]) {
    await p2.goto('about:blank');
    await p2.goto(bad);
    await p2.getByTestId('toast').waitFor();
    const said = await p2.getByTestId('toast').textContent();
    assert.match(said, why);
    // Every refusal ends alike (two wordings said the same thing).
    assert.match(said, /Your current work is unchanged\.\s*×?\s*$/, said);
    assert.equal(await hashOf(p2), hash, 'the work from before is still there');
    assert.equal(await p2.getByTestId('time').getAttribute('data-us'), '0', `${bad}: at its start`);
  }
  // A moment that is not a time is said, not silently dropped: the run opens at 0.
  for (const t of ['-5', '25000A0']) {
    await p2.goto('about:blank');
    await p2.goto(`${base}#run=kleppmann&seed=7&t=${t}`);
    await p2.getByTestId('lease-lab').waitFor();
    await p2.getByTestId('toast').waitFor();
    assert.match(await p2.getByTestId('toast').textContent(), new RegExp(`This link's moment “${t}” is not a time in microseconds \\(t= in the link\\): it opens at the start`));
    assert.equal(await p2.getByTestId('time').getAttribute('data-us'), '0');
  }
  await fresh.close();
  // In Japanese the unknown link names every kind of link, the ballot
  // table's too (it was left out), and ends as the others do.
  const ja = await open(ctx, { locale: 'ja-JP', hash: '#hello' });
  await ja.page.getByTestId('toast').waitFor();
  const jaSaid = await ja.page.getByTestId('toast').textContent();
  assert.match(jaSaid, /#s=.*#lesson=.*#ballots=.*いまの作業はそのままです。\s*×?\s*$/, jaSaid);
  await ja.context.close();
  assert.deepEqual(errors.concat(e2, ja.errors), []);
});

test('the work autosaves and comes back after a reload', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('scenario').selectOption('dueling-backoff');
  await page.getByTestId('seed').fill('1234');
  await page.getByTestId('seed-apply').click();
  const hash = await hashOf(page);
  await page.reload();
  await page.getByTestId('app').waitFor();
  assert.equal(await page.getByTestId('seed').inputValue(), '1234');
  assert.equal(await hashOf(page), hash);
  assert.deepEqual(errors, []);
});

test('bad files are refused with a clear message and the current work stays', async () => {
  const { page, errors } = await open(ctx);
  const hash = await hashOf(page);
  const good = JSON.parse(readFileSync(join(dir, 'cli-forced.trace.json'), 'utf8'));
  const text = JSON.stringify(good);
  const cases = [
    ['truncated.json', text.slice(0, text.length / 2), /not valid JSON/],
    ['types.json', JSON.stringify({ ...good, events: [{ seq: 'zero', t_us: 0, node: 'Α', kind: 'send' }] }), /"seq" must be a whole number/],
    ['version.json', JSON.stringify({ ...good, version: 7 }), /version 7 is not supported/],
    ['missing.json', JSON.stringify({ format: 'paxos-island-trace', version: 1, events: [{ seq: 0, t_us: 0, kind: 'send' }] }), /"node" must be a short text/],
    ['order.json', JSON.stringify({ ...good, events: [good.events[3], good.events[1]] }), /out of order/],
    ['other.json', JSON.stringify({ hello: 'world' }), /not a Paxos Island trace/],
    ['twice.json', '{"format": "paxos-island-trace",\n "format": "x"}', /the key "format" appears twice at line 2 column 2/],
    ['role.json', JSON.stringify({ ...good, events: [], scenario: { ...good.scenario, nodes: good.scenario.nodes.map((n, i) => (i === 1 ? { ...n, roles: ['acceptr'] } : n)) } }), /`nodes`: item 2: `roles`: item 1: unknown variant `acceptr`, expected one of `proposer`/],
    ['empty.json', '', /empty/],
    // The File menu's other writings, opened by mistake, are named.
    ['view.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), /this is a PNG picture, not a trace or a scenario/],
    ['view.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>', /this is an SVG picture, not a trace/],
    ['run.mmd', 'sequenceDiagram\n    participant n0 as A\n', /this is a Mermaid diagram, not a trace/],
    ['run.shiviz.log', '(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n\nA {"A":1}\n', /this is a ShiViz log, not a trace/],
  ];
  for (const [name, body, why] of cases) {
    const path = join(dir, name);
    writeFileSync(path, body);
    await importFile(page, path);
    await page.getByTestId('toast').waitFor();
    assert.match(await page.getByTestId('toast').textContent(), why, name);
    assert.equal(await hashOf(page), hash, `${name}: the work is untouched`);
    await page.getByTestId('toast').getByRole('button').click();
  }
  // Bigger than the limit: refused before it is read.
  const huge = join(dir, 'huge.json');
  writeFileSync(huge, Buffer.alloc(51_000_000, 32));
  await importFile(page, huge);
  await page.getByTestId('toast').waitFor();
  assert.match(await page.getByTestId('toast').textContent(), /files above 50000000 bytes/);
  assert.equal(await hashOf(page), hash);
  await shot(page, 'files-bad-input');
  assert.deepEqual(errors, []);
});

test('a trace saved with a byte order mark (as Windows editors write) opens and verifies', async () => {
  const original = readFileSync(join(dir, 'cli-forced.trace.json'), 'utf8');
  const path = join(dir, 'bom.trace.json');
  writeFileSync(path, '\uFEFF' + original);
  // The command line reads the file's bytes, the mark included.
  const out = cli('replay', path, '--verify');
  assert.equal(out.status, 0, out.stdout + out.stderr);
  const { page, errors } = await open(ctx);
  await importFile(page, path);
  await page.getByText('Verified replay').waitFor();
  assert.deepEqual(errors, []);
});

test('script in a name or a decree never becomes HTML', async () => {
  const { page, errors } = await open(ctx);
  await page.evaluate(() => { window.__pwned = false; });
  const s = JSON.parse(execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'paxos-island', '--', 'export-scenario', 'calm'], { cwd: ROOT, encoding: 'utf8' }));
  s.scenario.paxos.proposals[0].value = '<svg onload=__pwned=1>';
  const ok = join(dir, 'xss-value.json');
  writeFileSync(ok, JSON.stringify(s));
  await importFile(page, ok);
  await page.getByText('Scenario loaded').waitFor();
  await page.keyboard.press('End');
  assert.equal(await page.locator('svg[onload]').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), false);
  assert.match(await page.getByTestId('decided').textContent(), /<svg onload=__pwned=1>/);
  s.scenario.nodes[0].id = '<script>';
  const bad = join(dir, 'xss-name.json');
  writeFileSync(bad, JSON.stringify(s));
  await importFile(page, bad);
  await page.getByTestId('toast').waitFor();
  assert.match(await page.getByTestId('toast').textContent(), /node name "<script>" is not usable/);
  // The page's own classic script (first-frame.js) and no other.
  assert.deepEqual(await page.locator('script:not([type=module])').evaluateAll((ss) => ss.map((x) => x.getAttribute('src'))), ['./first-frame.js']);
  assert.deepEqual(errors, []);
});

test('a trace from another tool is viewed from its events alone', async () => {
  const { page, errors } = await open(ctx);
  const foreign = {
    format: 'paxos-island-trace', version: 1,
    events: [
      { seq: 0, t_us: 0, node: 'p1', kind: 'send', msg: { id: 0, type: 'prepare', ballot: { round: 1, node: 'p1' }, from: 'p1', to: 'p2' } },
      { seq: 1, t_us: 40000, node: 'p2', kind: 'deliver', msg: { id: 0, type: 'prepare', ballot: { round: 1, node: 'p1' }, from: 'p1', to: 'p2' } },
      { seq: 2, t_us: 50000, node: 'p2', kind: 'heartbeat', term: 4 },
    ],
  };
  const path = join(dir, 'foreign.json');
  writeFileSync(path, JSON.stringify(foreign));
  await importFile(page, path);
  await page.getByText('Showing the recorded events only').waitFor();
  assert.equal(await page.locator('[data-testid^=seat-]').count(), 2);
  await page.keyboard.press('End');
  assert.match(await page.getByTestId('narration').textContent(), /heartbeat/);
  await shot(page, 'files-foreign-trace');
  // Recorded events cannot be changed: a fault is refused with the reason.
  await page.locator('[data-testid=seat-0] circle.seat').click();
  await page.getByTestId('crash').click();
  assert.match(await page.getByTestId('toast').textContent(), /recorded events only/);
  assert.deepEqual(errors, []);
});

/// The share of a PNG's pixels that are near black (a picture drawn without
/// its styles fills its bars and bands with black).
async function blackShare(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let black = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 40 && d[i + 1] < 40 && d[i + 2] < 40 && d[i + 3] > 200) black++;
    return black / (d.length / 4);
  }, png.toString('base64'));
}

test('the view as SVG and PNG, on every tab, is drawn with the tab\'s own styles and holds what the tab shows', async () => {
  const { page, errors } = await open(ctx);
  for (const [tab, scenario, holds] of [
    ['tab-lease', 'llm-in-loop', /class="[^"]*\bgrant\b/],
    ['tab-commit', null, /<svg/],
    ['tab-multi', 'multi-leader-crash', /mp-log-scroll/],
    ['tab-ballots', null, /<input[^>]*value="/],
  ]) {
    await page.getByTestId(tab).click();
    if (scenario) await page.getByTestId('scenario').selectOption(scenario);
    await page.getByTestId('stage').waitFor();
    await page.waitForTimeout(300);
    if (tab !== 'tab-ballots') await page.keyboard.press('End');
    const svg = readFileSync(await download(page, 'export-view-svg'), 'utf8');
    const bad = await page.evaluate((t) => new DOMParser().parseFromString(t, 'image/svg+xml').getElementsByTagName('parsererror').length, svg);
    assert.equal(bad, 0, `${tab}: well-formed SVG`);
    assert.match(svg, holds, `${tab}: what the tab shows`);
    // A picture for a slide: the buttons that act on the run stay out of it
    // ("Crash the leader now", "Download SVG" were in Multi-Paxos's).
    assert.doesNotMatch(svg, /data-testid="(crash-leader|restart-replicas|export-spacetime)"/, `${tab}: controls in the picture`);
    // The parts' rules are inside (the lanes' bands were black without them).
    assert.match(svg, /\.lanes|\.lease-lanes|\.mp-log/, `${tab}: the parts' styles`);
    const png = readFileSync(await download(page, 'export-view-png'));
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], `${tab}: a PNG`);
    const share = await blackShare(page, png);
    assert.ok(share < 0.08, `${tab}: ${(share * 100).toFixed(1)} % of the picture is black`);
  }
  assert.deepEqual(errors, []);
});

test('exports: SVG parses, PNG is a PNG, ShiViz matches its regex, Mermaid parses with the real parser', async () => {
  const { page, errors } = await open(ctx);
  await page.getByTestId('scenario').selectOption('lossy');
  await page.keyboard.press('End');
  const svg = readFileSync(await download(page, 'export-view-svg'), 'utf8');
  const parsed = await page.evaluate((t) => new DOMParser().parseFromString(t, 'image/svg+xml').getElementsByTagName('parsererror').length, svg);
  assert.equal(parsed, 0, 'well-formed SVG');
  // The messengers stand in the picture where they stand on screen.
  await page.keyboard.press('Home');
  await page.getByTestId('scrubber').evaluate((el) => { el.value = '20000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=messenger]').length > 1);
  const onScreen = await page.locator('[data-testid=messenger]').evaluateAll((els) => els.map((el) => {
    // Read without changing it (`consolidate()` would rewrite the list).
    const m = el.transform.baseVal.getItem(0).matrix;
    return [m.e, m.f];
  }));
  const moving = readFileSync(await download(page, 'export-view-svg'), 'utf8');
  const inPicture = [...moving.matchAll(/data-testid="messenger"[^>]*transform="translate\(([-\d.]+)[ ,]+([-\d.]+)\)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
  assert.equal(inPicture.length, onScreen.length, 'the messengers in the picture');
  inPicture.forEach(([x, y], i) => assert.ok(Math.abs(x - onScreen[i][0]) < 0.1 && Math.abs(y - onScreen[i][1]) < 0.1, `messenger ${i} at ${x},${y} in the picture, ${onScreen[i]} on screen`));
  assert.ok(new Set(inPicture.map(String)).size > 1, `the messengers all stand at ${inPicture[0]}`);
  const png = readFileSync(await download(page, 'export-view-png'));
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const log = readFileSync(await download(page, 'export-shiviz'), 'utf8');
  const lines = log.split('\n').filter((l) => l.length);
  const re = /^(\S*) (\{.*\})$/;
  assert.ok(lines.slice(1).some((l) => re.test(l)), 'clock lines in ShiViz form');
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('mermaid-from').fill('0');
  await page.getByTestId('mermaid-to').fill('0.4');
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-mermaid').click()]);
  const mmd = join(dir, 'lossy.mmd');
  await d.saveAs(mmd);
  assert.match(readFileSync(mmd, 'utf8'), /^sequenceDiagram/);
  const r = spawnSync('node', [join(ROOT, 'tests/e2e/mermaid-parse.mjs'), mmd], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // A window typed wrong is refused inline.
  await page.getByTestId('file-menu').locator('summary').click();
  await page.getByTestId('mermaid-to').fill('soon');
  await page.getByTestId('export-mermaid').click();
  assert.match(await page.getByTestId('file-menu').textContent(), /not a duration/);
  // A window from 3 s to 1 s: its end is before its start (it was "“1” is
  // not a duration").
  await page.getByTestId('mermaid-from').fill('3');
  await page.getByTestId('mermaid-to').fill('1');
  await page.getByTestId('export-mermaid').click();
  const said = await page.getByTestId('file-menu').textContent();
  assert.match(said, /The window ends before it starts/);
  assert.doesNotMatch(said, /not a duration/);
  assert.deepEqual(errors, []);
});
