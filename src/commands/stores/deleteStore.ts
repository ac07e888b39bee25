/** Delete a cloud store after a modal confirmation that names it. */
import { l10n } from 'vscode';
import { isRequestError, type Store } from '../../api';
import type { CommandServices } from '../services';
import { failedText, inStep } from '../../ui/showError';
import { storeTarget } from '../../format';
import { storeKind } from '../orders/common';

export const DELETE = l10n.t('Delete');

/** `given`: the Cloud Stores row (or `Store`) it was run on; else one is picked. */
export async function deleteStore(services: CommandServices, given: Store | undefined): Promise<boolean> {
  const client = await services.connection.getClient();
  let store = given;
  if (!store) {
    const stores = await inStep(l10n.t('Loading cloud stores'), () => client.stores.list());
    if (!stores.length) {
      await services.ui.message('info', l10n.t('No cloud store is registered.'), {});
      return false;
    }
    const chosen = await services.ui.pick(
      stores.map((s) => ({ label: s.name, description: storeKind(s), detail: storeTarget(s), store: s })),
      { title: l10n.t('Delete Cloud Store'), placeHolder: l10n.t('Store to delete') },
    );
    if (!chosen) return false;
    store = chosen.store;
  }
  const confirm = await services.ui.message(
    'warning',
    l10n.t('Delete the cloud store "{0}"?', store.name),
    {
      modal: true,
      detail: `${storeKind(store)} ${storeTarget(store)}\n${l10n.t('Deliveries already made stay in the bucket; new deliveries cannot target this store.')}`,
    },
    DELETE,
  );
  if (confirm !== DELETE) return false;
  const name = store.name;
  const id = store.id;
  await inStep(
    (reason, err) => (isRequestError(err) ? l10n.t('Cloud store "{0}" was not deleted: {1}', name, reason) : failedText(l10n.t('Delete cloud store'), reason)),
    () => client.stores.delete(id),
  );
  services.connection.reportSuccess();
  services.log.info(`Deleted cloud store "${store.name}" (${store.id})`);
  services.explorer.refresh('stores');
  void services.ui.message('info', l10n.t('Cloud store "{0}" deleted.', store.name), {});
  return true;
}
