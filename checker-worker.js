// The model checker's Web Worker. The page posts one request (JSON, see
// src/check/explore/job.rs); this loads the checker's own WebAssembly module
// (paxos-checker, built for speed), searches in slices of about 100 ms and
// posts every reply back as JSON text {secs, reply}: progress, then the verdict. To cancel,
// the page terminates the worker.
import init, { Checker } from './paxos-checker.js';

const SLICE_MS = 100;

onmessage = async (e) => {
  try {
    await init();
    const checker = new Checker(e.data);
    const t0 = performance.now();
    let budget = 5000;
    for (;;) {
      const s = performance.now();
      const reply = checker.step(budget);
      const now = performance.now();
      const took = Math.max(now - s, 0.1);
      budget = Math.min(Math.max(Math.round((budget * SLICE_MS) / took), 1000), 5000000);
      // The search's age rides beside the reply (the core has no clock).
      postMessage(`{"secs":${(now - t0) / 1000},"reply":${reply}}`);
      if (!reply.startsWith('{"kind":"progress"')) break;
    }
  } catch (err) {
    postMessage(JSON.stringify({ secs: 0, reply: { kind: 'failed', message: `the model checker stopped: ${err}` } }));
  }
};
