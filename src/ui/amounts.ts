/**
 * Amounts as a person reads them everywhere: with the unit the organisation is billed in
 * (setting `eoImagery.amounts.unit`). The service states no unit, so the setting is empty by
 * default; while the extension talks to the sandbox it started itself ("Try the Sandbox"), whose
 * prices are made up, amounts are in "credits", so a unit shows and the setting is there to
 * change it.
 */
import vscode = require('vscode');
import { userSetting } from '../auth/settings';
import { amount } from '../format';

export const AMOUNT_UNIT_SETTING = 'eoImagery.amounts.unit';

/** The unit of the sandbox's made-up prices. */
export const SANDBOX_UNIT = 'credits';

let onSandbox: () => boolean = () => false;

/** Says how to tell whether the bundled sandbox is the service now (Try the Sandbox sets it). */
export function followSandbox(isSandbox: () => boolean): void {
  onSandbox = isSandbox;
}

/**
 * The configured unit, trimmed; else "credits" on the sandbox; else ''. The user's own setting
 * only: a cloned repository must not relabel the currency in the order confirmation.
 */
export function amountUnit(): string {
  return configuredUnit() || (onSandbox() ? SANDBOX_UNIT : '');
}

/**
 * The setting as last read. A list of orders words an amount per row, and reading the
 * setting (a configuration object and an `inspect`) each time was most of the time a chat
 * tool spent on a page of orders; a change of the setting drops the copy.
 */
let configured: string | undefined;
let watching: vscode.Disposable | undefined;

function configuredUnit(): string {
  if (configured === undefined) {
    watching ??= vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(AMOUNT_UNIT_SETTING)) configured = undefined;
    });
    const v = userSetting<unknown>(AMOUNT_UNIT_SETTING, '');
    configured = typeof v === 'string' ? v.trim().slice(0, 16) : '';
  }
  return configured;
}

/** "956.91 EUR" (or "956.91" without a unit); "—" when unknown. */
export function amountText(n: number | undefined | null): string {
  return amount(n, amountUnit());
}
