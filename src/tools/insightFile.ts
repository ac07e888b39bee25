/**
 * The insight file a model names: a path relative to a workspace folder (or an absolute one
 * inside it) ending in `.insight.json`. Files outside the workspace are refused: a tool reads
 * only what the person opened.
 */
import * as path from 'node:path';
import vscode = require('vscode');
import { l10n } from 'vscode';
import { INSIGHT_FILE_SUFFIX } from '../insights/build';
import type { Found } from './lookup';
import { quoted } from './text';

export async function openInsightFile(file: string): Promise<Found<vscode.TextDocument>> {
  if (!file.endsWith(INSIGHT_FILE_SUFFIX))
    return { ok: false, reason: l10n.t('{0} is not an insight input file (its name must end in {1}).', quoted(file), INSIGHT_FILE_SUFFIX) };
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) return { ok: false, reason: l10n.t('No folder is open: insight files are read from the workspace folder.') };
  const candidates = path.isAbsolute(file) ? [vscode.Uri.file(file)] : folders.map((f) => vscode.Uri.joinPath(f.uri, file));
  for (const uri of candidates) {
    if (!folders.some((f) => isInside(f.uri.fsPath, uri.fsPath))) continue;
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    if (exists) return { ok: true, value: await vscode.workspace.openTextDocument(uri) };
  }
  const known = await vscode.workspace.findFiles(`**/*${INSIGHT_FILE_SUFFIX}`, '**/node_modules/**', 20);
  const names = known.map((u) => quoted(vscode.workspace.asRelativePath(u)));
  return {
    ok: false,
    reason: names.length
      ? l10n.t('There is no {0} in the workspace. Insight files there: {1}.', quoted(file), names.join(', '))
      : l10n.t('There is no {0} in the workspace, and it holds no insight files.', quoted(file)),
  };
}

function isInside(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
