// Starts the app, and shows what went wrong if it cannot start or fails
// later. A file of its own (not inline) so the page's Content-Security-Policy
// can forbid inline scripts.
import init from './paxos-island.js';

const show = (msg) => {
  const box = document.getElementById('panic');
  const m = document.getElementById('panic-msg');
  if (!m.textContent) m.textContent = msg;
  box.hidden = false;
};
document.getElementById('panic-reload').addEventListener('click', () => location.reload());
// A Rust panic is shown by its own hook; these catch what follows it.
window.addEventListener('error', (e) => show(String(e.message)));
window.addEventListener('unhandledrejection', (e) => show(String(e.reason)));
// The page's language is a part of its own (src/ui/parts.rs): ask for it now,
// beside the module, rather than after it (the app picks the same one: the
// last choice, else the browser's language).
// So is the reader of saved work and share links, needed at once when there
// is either.
const preload = (href) => {
  const hint = document.createElement('link');
  hint.rel = 'preload';
  hint.as = 'fetch';
  hint.crossOrigin = 'anonymous';
  hint.href = href;
  document.head.appendChild(hint);
};
let lang = 'en';
let saved = false;
try {
  lang = localStorage.getItem('paxos-island:v1:lang') || navigator.language || 'en';
  saved = localStorage.getItem('paxos-island:v1:work') !== null;
} catch (_) {}
preload(lang.slice(0, 2).toLowerCase() === 'ja' ? './split_lang_ja.wasm' : './split_lang_en.wasm');
if (saved || /^#s=/.test(location.hash)) preload('./split_readers.wasm');
// The app removes the loading line itself, once its texts are here.
init().catch((e) => show('Failed to load the app: ' + e));
