// Localisation: the manifest's strings are all in package.nls.json, the build's bundle holds
// the extension's and the webviews' strings, the bundle reaches the webview page intact, and
// the lint rule refuses user-facing text that bypasses l10n.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { webviewHtml } from '../../src/panels/webviewHtml';

const ROOT = path.join(__dirname, '../../..');
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

test('every user-facing manifest string is a %key% defined in package.nls.json, and every key is used', async () => {
  const { checkManifest, manifestStrings } = (await importEsm(pathToFileURL(path.join(ROOT, 'scripts/manifest-nls.mjs')).href)) as {
    checkManifest(m: unknown, nls: unknown): string[];
    manifestStrings(m: unknown): unknown[];
  };
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as unknown;
  const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as unknown;
  assert.ok(manifestStrings(manifest).length > 100, 'the walker finds too few manifest strings');
  assert.deepEqual(checkManifest(manifest, nls), []);
});

test("the build exports the extension's and the webviews' strings to l10n/bundle.l10n.json", () => {
  const file = path.join(ROOT, 'l10n', 'bundle.l10n.json');
  assert.ok(fs.existsSync(file), 'no l10n/bundle.l10n.json: the build (npm run build) exports it');
  const bundle = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  assert.ok('Copy Logged Request as {0}' in bundle, 'an extension string is missing');
  assert.ok('Save Search…' in bundle, 'a webview string is missing');
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { l10n?: string };
  assert.equal(manifest.l10n, './l10n');
});

test('the webview page carries the bundle as inert JSON that no translation can break out of', () => {
  const bundle = { 'Save Search…': 'Suche speichern…', evil: '</script><script>alert(1)</script>' };
  const html = webviewHtml({ title: 'Map', cspSource: 'vscode-resource:', scriptUri: 'x.js', l10nBundle: bundle, lang: 'de', nonce: 'n' });
  assert.match(html, /<html lang="de">/);
  const m = /<script type="application\/json" id="eo-l10n">(.*)<\/script>/.exec(html);
  assert.ok(m, 'no bundle element');
  assert.ok(!m[1].includes('</script'), 'a translation closes the element');
  assert.deepEqual(JSON.parse(m[1]), bundle);
  assert.ok(!webviewHtml({ title: 'Map', cspSource: 'vscode-resource:', scriptUri: 'x.js' }).includes('eo-l10n'), 'English needs no bundle');
});

test('lint refuses user-facing text outside l10n.t and accepts it inside', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const lint = async (code: string): Promise<string[]> => {
    const [r] = await eslint.lintText(code, { filePath: path.join(ROOT, 'src/commands/example.ts') });
    return r.messages.filter((m) => m.ruleId === 'eo/no-unlocalized-string').map((m) => m.message);
  };
  const bad = await lint(`import vscode = require('vscode');
export function f(ui: { message(s: string, t: string, o: object, ...b: string[]): void }, n: number): void {
  void vscode.window.showInformationMessage('Saved the search.');
  ui.message('error', \`Could not save \${n} searches\`, {}, 'Retry');
  const item = new vscode.TreeItem('Load more…');
  item.tooltip = n > 1 ? 'Many' : 'One';
  void vscode.window.showQuickPick([], { placeHolder: 'Pick a search' });
}`);
  assert.equal(bad.length, 7, bad.join('\n'));
  const good = await lint(`import vscode = require('vscode');
import { l10n } from 'vscode';
export function f(n: number): void {
  void vscode.window.showInformationMessage(l10n.t('Saved the search.'));
  const item = new vscode.TreeItem(l10n.t('Load more…'));
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.description = '$(globe)';
  item.tooltip = l10n.t('{0} searches', n);
}`);
  assert.deepEqual(good, []);
});

test('lint follows a const to the text it holds: buttons pushed into an array, parts joined into a view message', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const lint = async (code: string): Promise<string[]> => {
    const [r] = await eslint.lintText(code, { filePath: path.join(ROOT, 'src/ui/example.ts') });
    return r.messages.filter((m) => m.ruleId === 'eo/no-unlocalized-string').map((m) => m.message);
  };
  const bad =
    await lint(`export function f(ui: { message(s: string, t: string, o: object, ...b: string[]): void }, view: { message?: string }, what: string): void {
  const text = \`\${what} failed\`;
  const buttons: string[] = [];
  buttons.push('Sign In');
  ui.message('error', text, {}, ...buttons, 'Show Log');
  const parts: string[] = [];
  parts.push(\`Filter: \${what}\`);
  const message = parts.length ? parts.join(' · ') : undefined;
  view.message = message;
}`);
  assert.equal(bad.length, 4, bad.join('\n'));
  const good = await lint(`import { l10n } from 'vscode';
export function f(ui: { message(s: string, t: string, o: object, ...b: string[]): void }, view: { message?: string }, what: string): void {
  const text = l10n.t('{0} failed', what);
  const retry = l10n.t('Retry');
  const buttons: string[] = [];
  buttons.push(retry);
  ui.message('error', text, {}, ...buttons);
  const parts: string[] = [];
  parts.push(l10n.t('Filter: {0}', what), '·');
  view.message = parts.join(' · ');
}`);
  assert.deepEqual(good, []);
});
