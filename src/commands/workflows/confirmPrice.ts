/**
 * The priced confirmation before a workflow runs: a quick pick whose first, preselected row is
 * Cancel, so Enter (on purpose, held down, or left over) spends nothing; the costly choice has
 * to be picked. A modal dialog cannot be made safe this way: VS Code focuses its first button
 * that is not Cancel.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { ExtensionServices } from '../../services';

export interface PriceConfirmation {
  /** The question with the price. */
  title: string;
  /** The costly choice ("Run"). */
  spend: string;
  /** What it costs, beside the costly choice. */
  cost: string;
  /** Lines shown under the choices (blank ones dropped). */
  summary: readonly string[];
}

type Row = vscode.QuickPickItem & { spend?: boolean };

/** True only when the costly choice was picked. */
export async function confirmPrice(services: ExtensionServices, c: PriceConfirmation): Promise<boolean> {
  const rows: Row[] = [
    { label: `$(close) ${l10n.t('Cancel')}`, description: l10n.t('nothing is spent') },
    { label: `$(credit-card) ${c.spend}`, description: c.cost, spend: true },
  ];
  const lines = c.summary.map((l) => l.trim()).filter(Boolean);
  if (lines.length) rows.push({ label: l10n.t('Summary'), kind: vscode.QuickPickItemKind.Separator }, ...lines.map((label) => ({ label })));
  for (;;) {
    const picked = await services.ui.pick(rows, {
      title: c.title,
      placeHolder: l10n.t('Enter cancels; pick "{0}" to spend {1}', c.spend, c.cost),
      ignoreFocusOut: true,
    });
    if (!picked || picked === rows[0]) return false;
    if (picked.spend) return true;
    // a line of the summary: ask again
  }
}
