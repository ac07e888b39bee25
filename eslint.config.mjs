import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import noUnlocalizedString from './scripts/eslint/no-unlocalized-string.mjs';
import untrustedText from './scripts/eslint/untrusted-text.mjs';
import catchRecovers from './scripts/eslint/catch-recovers.mjs';

const VSCODE = { regex: '^vscode$', message: 'This layer must not import vscode (docs/architecture.md).' };
/** Imports of the named top folders or root files (always extension.ts): `./x`, `../x`, `../../x/y`. */
const UPPER = (...names) => [
  {
    regex: `^(\\.{1,2}/)+(${[...names, 'extension'].join('|')})(/|$)`,
    message: 'docs/architecture.md does not draw this arrow: a layer imports only the layers below it.',
  },
];
const MEDIA_SRC = {
  regex:
    '^(\\.{1,2}/)+src/(?!searchFilters$|csvCells$|panels/protocol$|panels/(map|stac)Messages$|panels/webview/messages$|panels/imagery/protocol$|panels/imagery/(clip|series|timelapse)Messages$|panels/imagery/seriesStats$|panels/jobGraph/protocol$|geo/|raster/|api/records$|api/indexExpression$|api/colormaps$|format$)',
  message:
    'A webview script shares only the message tables and protocols, the index statistics, src/geo, src/raster, src/format, src/searchFilters, src/csvCells, the record types, the index-expression grammar and the colour maps with the extension side.',
};
/** One `no-restricted-imports` block per folder; the vscode ES-import rule above stays. */
function layerRules(layers) {
  return layers.map(({ files, forbid }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: forbid }] },
  }));
}

/** Blank lines and comments are not counted: a why-comment should never cost a split. */
const sizeRules = (lines, fn) => ({
  'max-lines': ['error', { max: lines, skipBlankLines: true, skipComments: true }],
  'max-lines-per-function': ['error', { max: fn, skipBlankLines: true, skipComments: true, IIFEs: true }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        window: 'readonly',
        document: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        URLSearchParams: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `import vscode = require('vscode')` is how src/ imports the editor API: esbuild then
      // emits a plain require instead of copying the namespace into every module at load.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      'no-console': 'off',
    },
  },
  {
    // Playwright's waitForFunction checks on every animation frame by default, which keeps
    // Chromium painting for as long as a test waits: tests wait through test/support/waitUntil.ts.
    // Benchmarks may time a frame-exact wait.
    files: ['test/**/*.ts'],
    ignores: ['test/bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='waitForFunction']",
          message: 'Wait with waitUntil (test/support/waitUntil.ts): it checks every 100 ms instead of on every animation frame.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // `import { l10n } from 'vscode'` alone is allowed: a named import compiles to a plain
          // require, and it is the form @vscode/l10n-dev recognises when it exports the strings.
          selector: "ImportDeclaration[source.value='vscode'][importKind='value']:not([specifiers.length=1][specifiers.0.imported.name='l10n'])",
          message:
            "Use `import vscode = require('vscode')` (and `import { l10n } from 'vscode'` for l10n.t): an ES import makes esbuild copy the whole vscode namespace into every module, which costs activation time.",
        },
      ],
    },
  },
  // The layers of docs/architecture.md: each block names what a folder may NOT import (the
  // arrows it does not have). The first folder after the leading ./ and ../ is matched, so
  // the rule holds at any depth ('../../explorer/tree', '../panels').
  ...layerRules([
    {
      files: ['src/lazy.ts', 'src/loadStart.ts'],
      forbid: [VSCODE, ...UPPER('api', 'geo', 'sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')],
    },
    // The one escaping function: pure, imported by every layer that shows outside text.
    {
      files: ['src/safeText.ts'],
      forbid: [VSCODE, ...UPPER('api', 'geo', 'sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')],
    },
    {
      files: ['src/commandIds.ts', 'src/format.ts', 'src/searchFilters.ts', 'src/nameMatch.ts', 'src/csvCells.ts'],
      forbid: [VSCODE, ...UPPER('geo', 'sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services')],
    },
    {
      files: ['src/api/**'],
      forbid: [VSCODE, ...UPPER('geo', 'sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')],
    },
    {
      files: ['src/geo/**'],
      forbid: [VSCODE, ...UPPER('sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')],
    },
    // Raster encoding shared by the map webview and the extension host: pure, no vscode.
    {
      files: ['src/raster/**'],
      forbid: [VSCODE, ...UPPER('api', 'geo', 'sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')],
    },
    { files: ['src/sandbox/**'], forbid: [VSCODE, ...UPPER('insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')] },
    {
      files: ['src/insights/build/**', 'src/insights/validate/**', 'src/insights/jsonc.ts', 'src/insights/specSource.ts'],
      forbid: [VSCODE, ...UPPER('editor', 'sandbox', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds')],
    },
    // The order rules and order plans: pure, shared by the wizards, the chat tools, the editor and the check command.
    {
      files: ['src/orders/**', 'src/plans/**'],
      forbid: [VSCODE, ...UPPER('sandbox', 'auth', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'commandIds', 'tools', 'cli')],
    },
    // The check command runs without VS Code: pure modules (plans, insight validation, the file readers) and the API client.
    {
      files: ['src/cli/**'],
      forbid: [VSCODE, ...UPPER('sandbox', 'auth', 'ui', 'explorer', 'panels', 'watch', 'services', 'tools', 'features', 'deferred')],
    },
    { files: ['src/auth/**'], forbid: UPPER('sandbox', 'insights', 'ui', 'explorer', 'panels', 'commands', 'watch', 'services', 'tools') },
    { files: ['src/ui/**', 'src/services.ts'], forbid: UPPER('sandbox', 'insights', 'explorer', 'panels', 'commands', 'watch', 'tools') },
    { files: ['src/explorer/**'], forbid: UPPER('sandbox', 'insights', 'panels', 'commands', 'tools') },
    // The watcher follows what is pending; the sidebar shows its reads, the commands start it.
    { files: ['src/watch/**'], forbid: UPPER('sandbox', 'insights', 'explorer', 'panels', 'commands', 'services', 'tools') },
    // Its schedule, stored list and followers are pure (unit-tested without the editor).
    {
      files: ['src/watch/schedule.ts', 'src/watch/followed.ts', 'src/watch/followers.ts'],
      forbid: [VSCODE, ...UPPER('sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'services', 'tools')],
    },
    { files: ['src/panels/**'], forbid: UPPER('sandbox', 'insights', 'explorer', 'commands', 'watch', 'tools') },
    { files: ['src/insights/editor/**'], forbid: UPPER('sandbox', 'explorer', 'panels', 'commands', 'watch', 'tools') },
    // commands/ may import every layer below it; only activate() and the chat tools import the commands.
    { files: ['src/commands/**'], forbid: UPPER('sandbox', 'tools') },
    // The chat tools sit beside activate(): they reuse the commands' flows, nothing imports them.
    { files: ['src/tools/**'], forbid: UPPER('sandbox') },
    // The tools' input and text modules are pure (unit-tested without vscode).
    {
      files: ['src/tools/input.ts', 'src/tools/text.ts', 'src/tools/archiveQuery.ts', 'src/tools/toolIds.ts'],
      forbid: [VSCODE, ...UPPER('sandbox', 'auth', 'ui', 'explorer', 'panels', 'commands', 'services', 'insights', 'watch')],
    },
    // The walkthrough watches the connection; it opens nothing itself.
    { files: ['src/walkthrough/**'], forbid: UPPER('sandbox', 'insights', 'explorer', 'panels', 'commands', 'watch', 'tools') },
    // Webview scripts run in the page: the message protocol, pure geometry and record types only.
    { files: ['media/**'], forbid: [VSCODE, MEDIA_SRC] },
    // Pure parts of the sidebar and the panels, unit-tested without the editor: the paged list
    // gets its rows from a RowFactory, the panels' message checks and allow-list need no vscode.
    {
      files: [
        'src/explorer/paged.ts',
        'src/panels/webview/messages.ts',
        'src/panels/mapMessages.ts',
        'src/panels/stacMessages.ts',
        'src/panels/imagery/*Messages.ts',
        'src/panels/imagery/seriesStats.ts',
        'src/panels/imagery/allowedFiles.ts',
      ],
      forbid: [
        VSCODE,
        ...UPPER('sandbox', 'insights', 'auth', 'ui', 'explorer', 'panels', 'commands', 'services'),
        {
          regex:
            '^\\./(?!protocol$|mapMessages$|stacMessages$|imagery/protocol$|imagery/(clip|series|timelapse)Messages$|(clip|series|timelapse)Messages$|seriesStats$|webview/messages$)',
          message: 'A pure module imports only the protocols and other pure modules.',
        },
      ],
    },
  ]),
  {
    // Every user-facing string through l10n (see scripts/eslint/no-unlocalized-string.mjs).
    files: ['src/**/*.ts', 'media/**/*.ts'],
    ignores: ['src/sandbox/**', 'src/api/**'],
    plugins: { eo: { rules: { 'no-unlocalized-string': noUnlocalizedString, 'untrusted-text': untrustedText, 'catch-recovers': catchRecovers } } },
    rules: { 'eo/no-unlocalized-string': 'error' },
  },
  {
    // Notifications, progress and markdown take text from outside only through safeText
    // (see scripts/eslint/untrusted-text.mjs).
    files: ['src/**/*.ts'],
    ignores: ['src/sandbox/**', 'src/api/**'],
    rules: { 'eo/untrusted-text': 'error' },
  },
  {
    // A command catches only what it recovers from, and says what (scripts/eslint/catch-recovers.mjs);
    // scripts/catch-budget.mjs holds how many catches src/commands may have.
    files: ['src/commands/**/*.ts'],
    rules: { 'eo/catch-recovers': 'error' },
  },
  {
    // Small files, small functions (issue 40 item 3); the record types are one file by design.
    files: ['src/**/*.ts', 'media/**/*.ts'],
    ignores: ['src/api/records.ts'],
    rules: sizeRules(450, 100),
  },
);
