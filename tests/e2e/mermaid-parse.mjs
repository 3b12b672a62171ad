// Parse a Mermaid file with the real Mermaid parser: exit 0 if it parses,
// 1 (with the parser's message) if it does not, 2 on a usage problem.
//
//   node tests/e2e/mermaid-parse.mjs diagram.mmd [more.mmd …]
//
// Needs the npm package `mermaid` (11.x) where Node can resolve it, e.g.
// `npm i mermaid` in this folder or NODE_PATH. Mermaid's parser needs no DOM:
// `mermaid.parse` runs the same lexer and grammar as rendering does
// (including the `#NN;` entity step), without laying anything out.
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node mermaid-parse.mjs FILE.mmd [FILE.mmd …]');
  process.exit(2);
}
let mermaid;
try {
  mermaid = (await import('mermaid')).default;
} catch (e) {
  console.error(`cannot load the npm package "mermaid": ${e.message}`);
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
  try {
    const r = await mermaid.parse(text);
    console.log(`${file}: ok (${r.diagramType})`);
  } catch (e) {
    failed += 1;
    console.error(`${file}: ${String(e.message ?? e).split('\n').slice(0, 4).join(' | ')}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
