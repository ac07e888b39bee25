// Completes l10n/bundle.l10n.json after `vscode-l10n-dev export`. The exporter finds
// `l10n.t('…')` only where `l10n` is imported from 'vscode' in an ES import; it misses the
// files written `import vscode = require('vscode')` and the pure modules that take `l10n` as
// a parameter (order summaries, labels, catalog targets), so their strings never reached
// translators. This adds every `l10n.t` whose first argument is a plain string literal.
//
//   node scripts/l10n-complete.mjs          (adds what is missing, says how many)
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(ROOT, 'l10n', 'bundle.l10n.json');

const CALL = /\bl10n\.t\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/g;

function unescape(s) {
  return s.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e) => {
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', 0: '\0' }[e] ?? e;
  });
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every string literal passed first to `l10n.t` in src/ and media/. */
export function literalMessages(root = ROOT) {
  const found = new Set();
  for (const file of [...sources(join(root, 'src')), ...sources(join(root, 'media'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(CALL)) found.add(unescape(m[1] ?? m[2]));
  }
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8'));
  let added = 0;
  for (const message of literalMessages()) {
    if (!(message in bundle)) {
      bundle[message] = message;
      added++;
    }
  }
  writeFileSync(BUNDLE, JSON.stringify(bundle, null, 2) + '\n');
  console.log(`l10n-complete: ${added} strings the exporter missed added to l10n/bundle.l10n.json`);
}
