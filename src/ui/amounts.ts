/**
 * Amounts as a person reads them everywhere: with the unit the organisation is billed in
 * (setting `eoImagery.amounts.unit`, empty by default because the service states none).
 */
import { userSetting } from '../auth/settings';
import { amount } from '../format';

export const AMOUNT_UNIT_SETTING = 'eoImagery.amounts.unit';

/**
 * The configured unit, trimmed; '' when none is set. The user's own setting only: a cloned
 * repository must not relabel the currency in the order confirmation.
 */
export function amountUnit(): string {
  const v = userSetting<unknown>(AMOUNT_UNIT_SETTING, '');
  return typeof v === 'string' ? v.trim().slice(0, 16) : '';
}

/** "956.91 EUR" (or "956.91" without a unit); "—" when unknown. */
export function amountText(n: number | undefined | null): string {
  return amount(n, amountUnit());
}
