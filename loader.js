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
// The reader of saved work and share links is a part of its own
// (src/ui/parts.rs), needed at once when there is either: ask for it now,
// beside the module, rather than after it.
let saved = false;
try { saved = localStorage.getItem('paxos-island:v1:work') !== null; } catch (_) {}
if (saved || /^#s=/.test(location.hash)) {
  const hint = document.createElement('link');
  hint.rel = 'preload';
  hint.as = 'fetch';
  hint.crossOrigin = 'anonymous';
  hint.href = './split_readers.wasm';
  document.head.appendChild(hint);
}
// The app removes the loading line itself, just before it draws the page.
init().catch((e) => show('Failed to load the app: ' + e));
