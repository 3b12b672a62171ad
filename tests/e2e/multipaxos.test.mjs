// Multi-Paxos in the page: the replicated log, the leader's chair, the
// master lease — read from the page as a student reads it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, open, shot, ROOT, seek, hashOf } from './lib.mjs';

let ctx;
before(async () => { ctx = await start(); });
after(async () => { await ctx?.browser.close(); ctx?.server.close(); });

const SCENARIOS = ['multi-calm', 'multi-leader-crash', 'multi-catch-up', 'two-masters', 'master-lease', 'chubby-failover', 'chubby-sequencer'];
const golden = (name) => readFileSync(join(ROOT, 'tests', 'determinism.rs'), 'utf8').match(new RegExp(`\\("${name}", "([0-9a-f]{16})"\\)`))[1];
const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();


async function openMulti(page, name) {
  await page.getByTestId('tab-multi').click();
  await page.getByTestId('multi-view').waitFor();
  await page.getByTestId('scenario').selectOption(name);
  await page.waitForFunction((n) => document.querySelector('[data-testid=scenario]').value === n, name);
}

/** Each replica's log as the page shows it: [[label, ink], …] per slot. */
const logs = (page) => page.locator('[data-testid=mp-log] tbody tr').evaluateAll((rows) =>
  Object.fromEntries(rows.map((r) => [r.dataset.testid.replace('mp-row-', ''),
    [...r.querySelectorAll('td')].map((td) => [td.textContent.trim(), td.dataset.ink ?? ''])])));

test('the seven Multi-Paxos and Chubby scenarios run in the page with the native trace hashes', async () => {
  const { page, errors } = await open(ctx);
  for (const name of SCENARIOS) {
    await openMulti(page, name);
    assert.equal(await hashOf(page), golden(name), name);
  }
  assert.deepEqual(errors, []);
});

test('a calm run: one leader, the same applied log on every replica, every client answered', async () => {
  const { page, errors } = await open(ctx);
  await openMulti(page, 'multi-calm');
  await page.keyboard.press('End');
  const l = await logs(page);
  assert.deepEqual(Object.keys(l), ['Α', 'Β', 'Γ']);
  for (const name of ['Β', 'Γ']) assert.deepEqual(l[name], l['Α'], name);
  assert.ok(l['Α'].filter(([, ink]) => ink === 'applied').length >= 4, JSON.stringify(l['Α']));
  assert.equal(await page.locator('[data-testid=mp-log] tr[data-leads=true]').count(), 1);
  assert.equal(await page.getByTestId('mp-row-Α').getAttribute('data-leads'), 'true');
  assert.match(await text(page, 'mp-client-C1'), /get x → 4/);
  await shot(page, 'multi-calm-end');
  assert.deepEqual(errors, []);
});

test('the leader crashes mid-pipeline: the new leader recovers two slots and fills the gap with a no-op', async () => {
  const { page, errors } = await open(ctx);
  await openMulti(page, 'multi-leader-crash');
  // Just after the crash: Α is down, nobody leads, slot 2 is only a vote in Α's ledger.
  await seek(page, 300_000);
  assert.equal(await page.getByTestId('mp-row-Α').getAttribute('data-down'), 'true');
  await page.getByTestId('mp-no-leader').waitFor();
  await shot(page, 'multi-leader-crash-gap');
  // A replica crashes (the parliament's "leaves the chamber" was said here).
  const atCrash = await page.getByTestId('narration').textContent();
  assert.match(atCrash, /Α crashes: what it held only in memory is lost; what it wrote to disk stays\./);
  assert.doesNotMatch(atCrash, /chamber/);
  // The moment Δ is elected, the narration says what it recovered.
  await seek(page, 1_243_000);
  assert.match(await page.getByTestId('narration').textContent(), /no-op/);
  await page.keyboard.press('End');
  // Δ's heartbeat finds Α down every 100 ms: said once, not every time.
  const told = await page.getByTestId('narration').textContent();
  assert.ok((told.match(/heartbeat finds nobody/g) ?? []).length <= 1, told);
  const l = await logs(page);
  const leader = await page.locator('[data-testid=mp-log] tr[data-leads=true]').getAttribute('data-testid');
  assert.equal(leader, 'mp-row-Δ');
  assert.deepEqual(l['Δ'].slice(0, 3).map(([label]) => label), ['x=1', 'no-op', 'z=3']);
  for (const name of ['Β', 'Γ', 'Ε']) assert.deepEqual(l[name].slice(0, 3), l['Δ'].slice(0, 3), name);
  await shot(page, 'multi-leader-crash-end');
  assert.deepEqual(errors, []);
});

// An engineer from the Parliament's inspector looks for a partition here too
// (only a crash was offered). The leader alone on one side: the others elect
// a new one once its lease has run out; the old one still believes it leads,
// but its row says it is cut off, and nothing it proposes is chosen.
test('cutting the leader off from the other replicas, then healing the network', async () => {
  const { page, errors } = await open(ctx);
  await openMulti(page, 'multi-calm');
  await page.getByTestId('heal-network').click();
  await page.getByTestId('toast').waitFor();
  assert.match(await page.getByTestId('toast').textContent(), /There is no partition to heal at this moment/);
  await seek(page, 300_000);
  await page.getByTestId('cut-leader').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=mp-row-Α]')?.dataset.cutOff === 'true');
  assert.equal(await page.getByTestId('mp-row-Β').getAttribute('data-cut-off'), 'false');
  assert.match(await page.getByTestId('mp-row-Α').textContent(), /cut off from a majority/);
  assert.match(await page.getByTestId('fault-list').textContent(), /Partition: messengers cannot cross between \{Α\} and \{Β, Γ\}/);
  await seek(page, 2_500_000);
  const leaders = await page.locator('[data-testid=mp-log] tr[data-leads=true]').evaluateAll((rs) => rs.map((r) => r.dataset.testid));
  assert.ok(leaders.includes('mp-row-Β') || leaders.includes('mp-row-Γ'), `a new leader on the majority's side: ${leaders}`);
  assert.equal(await page.getByTestId('mp-row-Α').getAttribute('data-lease'), 'false');
  // Α's heartbeat meets the partition every 100 ms: said once per receiver.
  const told = await page.getByTestId('narration').textContent();
  assert.ok((told.match(/Α's heartbeat cannot cross the partition to Β/g) ?? []).length <= 1, told);
  await shot(page, 'multi-leader-cut-off');
  await page.getByTestId('heal-network').click();
  await page.waitForFunction(() => /every road is open again/.test(document.querySelector('[data-testid=fault-list]')?.textContent ?? ''));
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=mp-row-Α]')?.dataset.cutOff === 'false');
  assert.deepEqual(errors, []);
});

test('without a lease two replicas lead at once and a read is stale; with it, never', async () => {
  const { page, errors } = await open(ctx);
  await openMulti(page, 'two-masters');
  await page.getByTestId('mp-no-lease').waitFor();
  await seek(page, 2_230_000);
  assert.equal(await page.locator('[data-testid=mp-log] tr[data-leads=true]').count(), 2, 'Α and Β both lead');
  assert.match(await text(page, 'invariants'), /✕\s*No stale reads/);
  await shot(page, 'multi-two-masters');
  await page.getByTestId('scenario').selectOption('master-lease');
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario]').value === 'master-lease');
  await page.keyboard.press('End');
  // Never two lanes held at once: the lanes' spans do not overlap in x.
  const spans = await page.locator('[data-testid=mp-lease-lanes] rect.mp-lease-span').evaluateAll((rs) =>
    rs.map((r) => [r.closest('g').dataset.testid, Number(r.getAttribute('x')), Number(r.getAttribute('x')) + Number(r.getAttribute('width'))]));
  assert.ok(new Set(spans.map((s) => s[0])).size >= 2, 'the lease changed hands');
  for (const a of spans) for (const b of spans) {
    if (a[0] !== b[0]) assert.ok(a[2] <= b[1] + 0.01 || b[2] <= a[1] + 0.01, `${a} overlaps ${b}`);
  }
  assert.doesNotMatch(await text(page, 'invariants'), /✕/);
  assert.match(await text(page, 'mp-client-C1'), /get x → 2/);
  await shot(page, 'multi-master-lease');
  assert.deepEqual(errors, []);
});

test('a teacher crashes the leader and sends a write; a bad value is refused with a message', async () => {
  const { page, errors } = await open(ctx, { locale: 'ja-JP' });
  await openMulti(page, 'multi-calm');
  await seek(page, 400_000);
  const before = await hashOf(page);
  await page.getByTestId('crash-leader').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=mp-row-Α]')?.dataset.down === 'true');
  // A value the client cannot hold was "recorded" and then dropped without a
  // word: it is refused, the reason said, and the run on screen stays.
  const crashed = await hashOf(page);
  for (const [value, why] of [['', /書き込む値を空にはできません/], ['こんにちは世界です', /書き込む値は 24 バイト.*これは 27 バイト/], ['a'.repeat(30), /30 バイト/]]) {
    await page.getByTestId('mp-value').fill(value);
    await page.getByTestId('mp-write').click();
    await page.waitForFunction((w) => new RegExp(w).test(document.querySelector('[data-testid=toast]')?.textContent ?? ''), why.source);
    assert.equal(await hashOf(page), crashed, `${value}: the run stays`);
    await page.getByTestId('toast').locator('button').click();
  }
  await page.getByTestId('mp-key').selectOption('w');
  await page.getByTestId('mp-value').fill('9');
  await page.getByTestId('mp-write').click();
  await page.keyboard.press('End');
  assert.notEqual(await hashOf(page), before);
  const l = await logs(page);
  assert.ok(l['Β'].some(([label]) => label === 'w=9'), JSON.stringify(l['Β']));
  assert.match(await page.getByTestId('multi-view').textContent(), /複製されたログ/);
  await shot(page, 'multi-teacher-ja');
  assert.deepEqual(errors, []);
});

test('the lessons: predict the no-op, then the stale read and the lease, in both languages', async () => {
  for (const [locale, words] of [['en-US', { noop: /no-op/, stale: /stale read/, right: /Right/ }], ['ja-JP', { noop: /no-op/, stale: /古い値/, right: /正解/ }]]) {
    const { page, errors } = await open(ctx, { locale });
    await page.goto(ctx.url + '#lesson=multi-paxos&step=2');
    await page.getByTestId('predict').waitFor();
    // The question comes before the answer is on screen: nobody leads yet, slot 2 is only a vote in Α's ledger.
    await page.getByTestId('mp-no-leader').waitFor();
    assert.equal(await page.getByTestId('caption').count(), 0, 'no caption telling the story');
    const l = await logs(page);
    assert.ok(!l['Δ'].some(([label]) => label === 'no-op'), 'the no-op is not shown before the answer');
    await shot(page, `multi-lesson-${locale}-question`);
    await page.getByTestId('option-1').check();
    await page.getByTestId('answer').click();
    await page.getByTestId('explanation').waitFor({ timeout: 30000 });
    assert.match(await page.getByTestId('explanation').textContent(), words.right);
    assert.match(await page.getByTestId('explanation').textContent(), words.noop);
    assert.equal((await logs(page))['Δ'][1][0], 'no-op');
    await shot(page, `multi-lesson-${locale}-explained`);
    // The next lesson: the stale read without a lease.
    await page.goto(ctx.url + '#lesson=master-lease&step=1');
    await page.getByTestId('predict').waitFor();
    await page.getByTestId('option-1').check();
    await page.getByTestId('answer').click();
    await page.getByTestId('explanation').waitFor({ timeout: 30000 });
    assert.match(await page.getByTestId('explanation').textContent(), words.stale);
    assert.match(await text(page, 'invariants'), /✕/);
    await shot(page, `master-lease-lesson-${locale}-stale`);
    assert.deepEqual(errors, []);
  }
});

/** A client's session as its line and its lane show it. */
const session = async (page, c) => [
  await page.getByTestId(`mp-session-${c}`).getAttribute('data-session'),
  await page.getByTestId(`mp-session-lane-${c}`).getAttribute('data-session'),
];

test('Chubby: a paused lock holder believes in its session, and its stale sequencer is refused by the live check', async () => {
  const { page, errors } = await open(ctx);
  await openMulti(page, 'chubby-sequencer');
  await seek(page, 500_000);
  assert.deepEqual(await session(page, 'C1'), ['safe', 'safe']);
  assert.match(await text(page, 'mp-holds-C1'), /lock 0 \(generation 1\)/);
  assert.match(await text(page, 'mp-file'), /^a \(generation 1\)$/);
  // C1 is paused: the master has ended its session and C2 holds the lock,
  // but C1, frozen, still shows what it last believed.
  await seek(page, 3_000_000);
  assert.deepEqual(await session(page, 'C1'), ['safe', 'safe']);
  assert.equal(await page.getByTestId('mp-paused').count(), 1, 'the pause is drawn on its lane');
  assert.match(await text(page, 'mp-session-ended'), /session ended by the master \(Α\)/);
  assert.match(await text(page, 'mp-holds-C2'), /lock 0 \(generation 2\)/);
  const cells = (await logs(page))['Α'].map(([label]) => label);
  assert.ok(cells.includes('end C1') && cells.includes('C2 lock 0'), JSON.stringify(cells));
  // It wakes and writes with generation 1: F asks the cell and refuses it.
  await seek(page, 3_950_000);
  assert.equal(await page.getByTestId('mp-file-verdict').getAttribute('data-verdict'), 'not_current');
  assert.match(await text(page, 'mp-file-verdict'), /C1, generation 1 — refused: the cell says it is no longer current/);
  assert.deepEqual(await session(page, 'C1'), ['lost', 'lost']);
  assert.equal(await page.getByTestId('mp-holds-C1').count(), 0, 'C1 holds nothing any more');
  assert.match(await text(page, 'mp-file'), /^a \(generation 1\)$/, 'the stale write changed nothing');
  await shot(page, 'chubby-sequencer-refused');
  await page.keyboard.press('End');
  assert.match(await text(page, 'mp-file'), /^c \(generation 2\)$/);
  const marks = await page.locator('[data-testid=mp-write-mark]').evaluateAll((m) => m.map((x) => x.dataset.verdict + ' ' + x.textContent.trim()));
  assert.deepEqual(marks, ['accepted ✓ g1', 'not_current ✗ g1', 'accepted ✓ g2']);
  assert.match(await text(page, 'invariants'), /✓/);
  assert.doesNotMatch(await text(page, 'invariants'), /✕/);
  assert.deepEqual(errors, []);
});

test('Chubby: a session in jeopardy survives the fail-over, in Japanese too', async () => {
  for (const [locale, words] of [['en-US', { jeopardy: /in jeopardy/, lock: /C1 lock 0/ }], ['ja-JP', { jeopardy: /危険状態/, lock: /C1 ロック 0/ }]]) {
    const { page, errors } = await open(ctx, { locale });
    await openMulti(page, 'chubby-failover');
    await seek(page, 1_700_000);
    assert.deepEqual(await session(page, 'C1'), ['jeopardy', 'jeopardy']);
    assert.match(await text(page, 'mp-session-C1'), words.jeopardy);
    await page.getByTestId('mp-no-leader').waitFor();
    await shot(page, `chubby-failover-jeopardy-${locale}`);
    await seek(page, 2_000_000);
    assert.deepEqual(await session(page, 'C1'), ['safe', 'safe']);
    assert.equal(await page.getByTestId('mp-row-Δ').getAttribute('data-leads'), 'true');
    assert.ok((await logs(page))['Δ'].some(([label]) => words.lock.test(label)), 'the log speaks the page language');
    await page.keyboard.press('End');
    const marks = await page.locator('[data-testid=mp-write-mark]').evaluateAll((m) => m.map((x) => x.dataset.verdict));
    assert.deepEqual(marks, ['accepted', 'accepted'], 'both writes pass with generation 1');
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('Shift+→ stops where the story turns: the election, the jeopardy, the new master, the writes, not only at the crash', async () => {
  const { page, errors } = await open(ctx);
  await openMulti(page, 'chubby-failover');
  const now = async () => Number(await page.getByTestId('time').getAttribute('data-us'));
  const stops = [];
  for (let i = 0; i < 60; i++) {
    const before = await now();
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid=time]').dataset.us) !== b, before, { timeout: 2000 }).catch(() => {});
    const t = await now();
    if (t === before) break;
    stops.push(t);
  }
  const end = stops.at(-1);
  // The crash at 0.8 s, then stops between it and the end: the jeopardy
  // (about 1.67 s), Δ elected, the session safe again, the write.
  const between = stops.filter((t) => t > 800_000 && t < end);
  assert.ok(between.length >= 4, `stops: ${stops}`);
  assert.ok(between.some((t) => t > 1_600_000 && t < 1_720_000), `a stop at the jeopardy: ${stops}`);
  // A calm run with a stable leader stops at its chosen slots.
  await openMulti(page, 'multi-calm');
  await page.keyboard.press('End');
  const calmEnd = await now();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowRight');
  const first = await now();
  assert.ok(first > 0 && first < calmEnd, `a stop before the end (${first} of ${calmEnd})`);
  assert.deepEqual(errors, []);
});

test('Where Paxos lives: the stale-sequencer question is asked before F decides, then explained', async () => {
  const { page, errors } = await open(ctx, { locale: 'ja-JP' });
  await page.goto(ctx.url + '#lesson=where-paxos-lives&step=5');
  await page.getByTestId('predict').waitFor();
  assert.equal(await page.getByTestId('mp-file-verdict').getAttribute('data-verdict'), 'accepted', 'F has not judged the stale write yet');
  assert.equal(await page.locator('[data-testid=mp-write-mark][data-verdict=not_current]:visible').count(), 0);
  await page.getByTestId('option-1').check();
  await page.getByTestId('answer').click();
  await page.getByTestId('explanation').waitFor({ timeout: 30000 });
  assert.match(await page.getByTestId('explanation').textContent(), /正解/);
  assert.equal(await page.locator('[data-testid=mp-write-mark][data-verdict=not_current]:visible').count(), 1);
  await shot(page, 'where-paxos-lives-sequencer-ja');
  assert.deepEqual(errors, []);
});

/// The space-time diagram's words follow the page's language — the lanes of
/// a crashed replica, a partition, a violation — and no two of its labels
/// cover each other where a lane is crowded.
for (const [locale, crashed, cut, broken, english] of [
  ['en-US', 'crashed', /^Partition \{Α,C1\} \| \{Β,Γ,C2\}/, /No stale reads is broken/, null],
  ['ja-JP', 'クラッシュ中', /^ネットワーク分断 \{Α,C1\} \| \{Β,Γ,C2\}/, /「古い値を読まない」が破られました/, /crashed|partition|VIOLATION/i],
]) {
  test(`the space-time diagram speaks ${locale}, and no word of it covers another or leaves the plot`, async () => {
    const { page, errors } = await open(ctx, { locale });
    await openMulti(page, 'multi-leader-crash');
    await page.getByTestId('to-end').click();
    const svg = page.getByTestId('spacetime').locator('.spacetime-svg');
    assert.ok((await svg.locator('.spans text').allTextContents()).includes(crashed));
    await openMulti(page, 'two-masters');
    await page.getByTestId('to-end').click();
    const words = await svg.locator('.spans text').allTextContents();
    assert.ok(words.some((w) => cut.test(w)), words.join(' / '));
    const marks = await svg.locator('.marker text').allTextContents();
    assert.ok(marks.some((m) => broken.test(m)), marks.join(' / '));
    if (english) assert.deepEqual([...words, ...marks].filter((w) => english.test(w)), []);
    // A lossy Synod run: what became of each lost, cut or duplicated message.
    await page.getByTestId('tab-parliament').click();
    await page.getByTestId('scenario').selectOption('lossy');
    await page.getByTestId('to-end').click();
    const arrows = (await svg.locator('.arrows text').allTextContents()).join(' / ');
    assert.match(arrows, locale === 'ja-JP' ? /✕ 行方不明/ : /✕ lost/);
    assert.match(arrows, locale === 'ja-JP' ? /（重複）/ : /\(duplicate\)/);
    if (english) assert.doesNotMatch(arrows, /lost|duplicate|receiver down|in flight/);
    // Every pair of words, the marks' and the arrows' (a lost messenger's ✕
    // is not a word): their boxes on screen do not overlap, and no arrow's
    // word runs past the lanes' ends (where the plot cuts it off).
    const boxes = await svg.locator('.marker text, .arrows text').evaluateAll((els) => els
      .filter((e) => e.textContent !== '✕')
      .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom, e.textContent, !!e.closest('.arrows')]; }));
    assert.ok(boxes.filter((b) => b[5]).length >= 10, `${boxes.length} words`);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const overlap = Math.min(a[1], b[1]) - Math.max(a[0], b[0]) > 1 && Math.min(a[3], b[3]) - Math.max(a[2], b[2]) > 1;
      assert.ok(!overlap, `"${a[4]}" covers "${b[4]}"`);
    }
    const plot = await svg.locator('.lanes line').first().evaluate((l) => { const r = l.getBoundingClientRect(); return [r.left, r.right]; });
    for (const b of boxes.filter((b) => b[5])) assert.ok(b[0] >= plot[0] - 1 && b[1] <= plot[1] + 1, `"${b[4]}" runs out of the plot`);
    assert.deepEqual(errors, []);
  });
}
