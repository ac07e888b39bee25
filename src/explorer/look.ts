import vscode = require('vscode');
import { statusCategory, type StatusCategory } from './status';

/** Theme colours per status look; chart colours follow the person's theme. */
const COLOR: Record<StatusCategory, string | undefined> = {
  success: 'charts.green',
  inProgress: 'charts.blue',
  failed: 'charts.red',
  draft: 'charts.yellow',
  cancelled: 'disabledForeground',
  neutral: undefined,
};

/** Icons for a status when the row's own icon does not say more. */
const STATUS_ICON: Record<StatusCategory, string> = {
  success: 'pass',
  inProgress: 'sync~spin',
  failed: 'error',
  draft: 'edit',
  cancelled: 'circle-slash',
  neutral: 'circle-outline',
};

/** The row's kind icon, tinted by status: the shape says what it is, the colour how it is. */
export function kindIcon(codicon: string, status?: string | null): vscode.ThemeIcon {
  const color = COLOR[statusCategory(status)];
  return new vscode.ThemeIcon(codicon, color ? new vscode.ThemeColor(color) : undefined);
}

/** An icon that shows the status itself (spinning while in progress). */
export function statusIcon(status: string | null | undefined): vscode.ThemeIcon {
  const c = statusCategory(status);
  const color = COLOR[c];
  return new vscode.ThemeIcon(STATUS_ICON[c], color ? new vscode.ThemeColor(color) : undefined);
}
