// The static copy of the app's first frame (scripts/prerender.mjs writes it
// into dist/index.html; tests/e2e/firstframe.test.mjs compares its pixels
// with the app's).
// Runs in the page, so it is self-contained: it is passed as source text.

/// The HTML of a static copy of `app`: what the frame shows, nothing else.
export function staticCopy(app) {
  const copy = app.cloneNode(true);
  // Fields keep their values as properties, which outerHTML leaves out.
  const live = app.querySelectorAll('input, select');
  const dead = copy.querySelectorAll('input, select');
  live.forEach((el, i) => {
    const c = dead[i];
    if (el.tagName === 'SELECT') {
      // A closed select shows its chosen option, as wide as its widest: the
      // copy keeps those two (the widest hidden, it still sets the width).
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = getComputedStyle(el).font;
      const widths = [...el.options].map((o) => pen.measureText(o.text).width);
      const wide = widths.indexOf(Math.max(...widths));
      [...c.options].forEach((o, k) => {
        o.removeAttribute('value');
        if (k === el.selectedIndex) o.setAttribute('selected', '');
        else if (k === wide) o.setAttribute('hidden', '');
        else o.remove();
      });
    } else if (el.type === 'checkbox' || el.type === 'radio') {
      c.toggleAttribute('checked', el.checked);
    } else if (el.type !== 'file') {
      c.setAttribute('value', el.value);
    }
  });
  // Not seen: tooltips, a closed menu's items, the file drop's hint, what is
  // hidden, and markers (arrowheads) while nothing draws with one.
  const unseen = ['title', 'details > :not(summary)', '.drop-hint', '[visibility=hidden]'];
  if (!copy.innerHTML.includes('url(#')) unseen.push('defs');
  copy.querySelectorAll(unseen.join(', ')).forEach((el) => el.remove());
  // Nothing in the copy is read, focused or found by tests: the live page
  // is. Kept: what the stylesheet reads (pressed, invalid) and the markers'
  // names.
  for (const el of [copy, ...copy.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) {
      const read = a.name === 'aria-pressed' || a.name === 'aria-invalid' || (a.name === 'id' && el.closest('defs'));
      if (!read && /^(aria-|data-|title$|role$|tabindex$|id$|for$|inputmode$|autocomplete$)/.test(a.name)) el.removeAttribute(a.name);
    }
  }
  // Leptos's placeholders (empty comments) mark where views may come: they
  // go, but for one between two pieces of text, which keeps them two (the
  // browser shapes each piece apart: merged, a line of mixed Latin and
  // Japanese lands a fraction of a pixel elsewhere).
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  for (const n of nodes) {
    if (n.nodeType === Node.COMMENT_NODE) {
      if (!(n.previousSibling?.nodeType === Node.TEXT_NODE && n.nextSibling?.nodeType === Node.TEXT_NODE)) n.remove();
    } else if (n.nextSibling?.nodeType === Node.TEXT_NODE) {
      n.after(document.createComment(''));
    }
  }
  return copy.outerHTML;
}
