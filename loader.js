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
init()
  .then(() => { const l = document.getElementById('loading'); if (l) l.remove(); })
  .catch((e) => show('Failed to load the app: ' + e));
