// The lint rule that keeps text from outside out of the places that parse it
// (scripts/eslint/untrusted-text.mjs): a direct notification, a progress, markdown.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.join(__dirname, '../../..');

async function lint(code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [r] = await eslint.lintText(code, { filePath: path.join(ROOT, 'src/commands/example.ts') });
  return r.messages.filter((m) => m.ruleId === 'eo/untrusted-text').map((m) => `${m.line}: ${m.message}`);
}

test('lint refuses a service value on its way to a notification, a progress or markdown without safeText', async () => {
  const bad = await lint(`import vscode = require('vscode');
import { l10n } from 'vscode';
import { safeText } from '../safeText';
export function f(name: string): void {
  void vscode.window.showErrorMessage(l10n.t('Order {0} failed', name));
  void vscode.window.showErrorMessage(safeText(l10n.t('Order {0} failed', name), 'line'));
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Saving') }, async () => undefined);
  const show = vscode.window.showWarningMessage;
  void show(name);
  vscode.window.setStatusBarMessage(\`Copied \${name}\`);
  const md = new vscode.MarkdownString(name);
  md.appendMarkdown(\`**\${name}**\`);
  md.appendText(name);
}`);
  assert.deepEqual(
    bad.map((m) => Number(m.split(':')[0])),
    [5, 6, 7, 8, 10, 11, 12, 13],
    bad.join('\n'),
  );
  const good = await lint(`import vscode = require('vscode');
import { l10n } from 'vscode';
import { safeText } from '../safeText';
export function f(name: string, n: number): void {
  void vscode.window.showErrorMessage(l10n.t('Nothing to save.'));
  void vscode.window.showErrorMessage(safeText(l10n.t('Order {0} failed', name), 'notification'));
  vscode.window.setStatusBarMessage(n > 1 ? l10n.t('Copied.') : 'OK', 3000);
  const md = new vscode.MarkdownString();
  md.appendMarkdown(\`**\${safeText(name, 'markdown')}**\\n\\n\`);
}`);
  assert.deepEqual(good, []);
});
