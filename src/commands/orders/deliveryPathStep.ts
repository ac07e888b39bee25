/**
 * The folder inside a cloud store that a delivery writes to. It starts filled in with a real
 * default (a dated folder) rather than a placeholder that looks like one and is refused on Enter.
 */
import { l10n } from 'vscode';
import { outcome, type Step } from '../../ui/multiStep';
import { checkStorePath } from '../../orders/rules';

/** `deliveries/YYYY-MM-DD` (UTC): a folder per day keeps deliveries apart without asking. */
export function defaultDeliveryPath(now = new Date()): string {
  return `deliveries/${now.toISOString().slice(0, 10)}`;
}

export function deliveryPathStep<S extends { storeId: string; path: string }>(now?: () => Date): Step<S> {
  return {
    name: l10n.t('Path in the store'),
    describe: (s) => s.path,
    when: (s) => s.storeId !== '',
    async ask(s, ui) {
      const answer = await ui.input({
        prompt: l10n.t('Folder inside the store the files are written to (Enter keeps the one shown)'),
        value: s.path || defaultDeliveryPath(now?.()),
        validate: checkStorePath,
      });
      return outcome(answer, (v) => (s.path = v.trim()));
    },
  };
}
