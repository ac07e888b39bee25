/**
 * The confirmation before anything that costs money (an order, an insight run). It is a quick
 * pick whose first, preselected row is Cancel: Enter, whether pressed on purpose, held down, or
 * left over from the wizard's last step, spends nothing; the costly choice has to be picked
 * (arrow down, or a click). A modal dialog cannot be made safe this way: VS Code focuses its
 * first button that is not Cancel, so Enter in a dialog confirms.
 *
 * The priced summary is listed under the choices, one row per line; picking a line of it only
 * shows the confirmation again.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Prompts } from './prompts';

export interface SpendConfirmation {
  /** The question with the price: "Place this order? 1 item · total amount 2,000.00 credits". */
  title: string;
  /** The costly choice's label ("Place Order", "Run"). */
  spend: string;
  /** What it costs, shown beside the costly choice ("2,000.00 credits", "about 42 tokens"). */
  cost: string;
  /** The summary, line by line (blank lines are dropped). */
  summary: readonly string[];
  /** Safe choices besides Cancel ("Edit Entries…"), offered after the costly one. */
  others?: readonly string[];
}

type Row = vscode.QuickPickItem & { choice?: string };

/** The chosen label (`spend` or one of `others`), or undefined for Cancel, Escape or a closed picker. */
export async function confirmSpend(ui: Prompts, c: SpendConfirmation): Promise<string | undefined> {
  const rows: Row[] = [
    { label: l10n.t('Cancel'), iconPath: new vscode.ThemeIcon('close'), description: l10n.t('nothing is spent') },
    { label: c.spend, iconPath: new vscode.ThemeIcon('credit-card'), description: c.cost, choice: c.spend },
    ...(c.others ?? []).map((o) => ({ label: o, iconPath: new vscode.ThemeIcon('edit'), choice: o })),
  ];
  const lines = c.summary.map((l) => l.trim()).filter(Boolean);
  if (lines.length) {
    rows.push({ label: l10n.t('Summary'), kind: vscode.QuickPickItemKind.Separator });
    for (const line of lines) rows.push({ label: line });
  }
  for (;;) {
    const picked = await ui.pick(rows, {
      title: c.title,
      placeHolder: l10n.t('Enter cancels; pick "{0}" to spend {1}', c.spend, c.cost),
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    if (picked === rows[0]) return undefined;
    if (picked.choice) return picked.choice;
    // a line of the summary: nothing to do, ask again
  }
}
