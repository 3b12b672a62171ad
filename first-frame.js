// Shows a picture of the page's first frame while the module loads (issue 15:
// the parliament painted before the module is up). scripts/prerender.mjs
// copies it from the built app into index.html, one <template> per language;
// this classic script (not inline: the Content-Security-Policy forbids that)
// shows the right one in place of the loading line, inert, and hides it in the
// same task as the app draws itself (no frame shows both, or neither).
//
// Only where the app's first frame is that picture: no share, run or lesson
// link in the URL, no saved work, not "show the whole run" (src/ui/files.rs
// `readers_needed_at_start`, src/ui.rs), wider than a phone (src/ui/browser.rs
// `narrow`). Elsewhere the loading line stays, as before.
(() => {
  let lang = null;
  try {
    if (location.hash.length > 1) return;
    if (localStorage.getItem('paxos-island:v1:work') !== null) return;
    if (localStorage.getItem('paxos-island.whole-run') === '1') return;
    lang = localStorage.getItem('paxos-island:v1:lang');
  } catch (_) {
    return;
  }
  if (matchMedia('(max-width: 600px)').matches) return;
  // As src/ui.rs `initial_lang`: the language chosen last time, else the
  // browser's, else English (`Lang::from_code` reads the first two letters).
  const code = (c) => { const two = (c || '').slice(0, 2).toLowerCase(); return two === 'en' || two === 'ja' ? two : null; };
  const chosen = code(lang) || code(navigator.language) || 'en';
  const t = document.getElementById(`first-frame-${chosen}`);
  const loading = document.getElementById('loading');
  if (!t || !loading) return;
  const frame = document.createElement('div');
  frame.id = 'first-frame';
  frame.inert = true;
  frame.setAttribute('aria-hidden', 'true');
  // Moved, not copied: neither template is needed again.
  frame.append(t.content);
  document.querySelectorAll('template[id^="first-frame-"]').forEach((x) => x.remove());
  // The page's language, as the app will set it (fonts, hyphenation).
  document.documentElement.lang = chosen;
  // The picture is hidden from screen readers; the loading line stays for
  // them, out of sight (the app takes it away when it draws itself).
  loading.className = 'sr-only';
  loading.after(frame);
  // The app draws itself into the page's body: in the same task (before any
  // frame is drawn) the picture is hidden; it is taken away once the page is
  // whole (the part after the first paint has come: `data-later`, src/ui.rs),
  // or after five seconds. Not at once: the browser counts a text's paint
  // for the largest contentful paint only when it hears back that the frame
  // was shown (here tens of ms later), and drops a node taken away before
  // then from that count, though it was on the screen.
  const gone = () => frame.remove();
  const mo = new MutationObserver(() => {
    const app = document.querySelector('body > .app');
    if (!app) return;
    mo.disconnect();
    frame.className = 'gone';
    setTimeout(gone, 5000);
    const whole = new MutationObserver(() => {
      if (app.dataset.later === 'loading') return;
      whole.disconnect();
      gone();
    });
    whole.observe(app, { attributes: true, attributeFilter: ['data-later'] });
  });
  mo.observe(document.body, { childList: true });
})();
