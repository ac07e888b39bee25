/**
 * The priced confirmation before a workflow runs: the extension's one spend confirmation
 * (ui/confirmSpend.ts), a quick pick whose first, preselected row is Cancel, so Enter (on
 * purpose, held down, or left over) spends nothing; the costly choice has to be picked.
 */
import type { ExtensionServices } from '../../services';
import { confirmSpend, type SpendConfirmation } from '../../ui/confirmSpend';

export type PriceConfirmation = Omit<SpendConfirmation, 'others'>;

/** True only when the costly choice was picked. */
export async function confirmPrice(services: ExtensionServices, c: PriceConfirmation): Promise<boolean> {
  return (await confirmSpend(services.ui, c)) === c.spend;
}
