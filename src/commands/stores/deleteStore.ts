/** Delete a cloud store after a modal confirmation that names it. */
import { l10n } from 'vscode';
import { isRequestError, type Store } from '../../api';
import type { CommandServices } from '../services';
import { describeError, showError } from '../../ui/showError';
import { storeTarget } from '../../format';
import { clientFor, storeKind } from '../orders/common';

export const DELETE = l10n.t('Delete');

/** Argument: a Cloud Stores row (`{kind: 'store', record}`), a `Store`, or nothing (pick one). */
export async function deleteStore(services: CommandServices, arg?: unknown): Promise<boolean> {
  const action = l10n.t('Delete cloud store');
  const client = await clientFor(services, action);
  if (!client) return false;
  let store = storeOf(arg);
  if (!store) {
    let stores: Store[];
    try {
      stores = await client.stores.list();
    } catch (err) {
      await showError(services, l10n.t('Loading cloud stores'), err, () => deleteStore(services, arg));
      return false;
    }
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
  try {
    await client.stores.delete(store.id);
  } catch (err) {
    if (isRequestError(err)) {
      await services.ui.message('error', l10n.t('Cloud store "{0}" was not deleted: {1}', store.name, describeError(err)), {});
    } else {
      await showError(services, action, err, () => deleteStore(services, store));
    }
    return false;
  }
  services.connection.reportSuccess();
  services.log.info(`Deleted cloud store "${store.name}" (${store.id})`);
  services.explorer.refresh('stores');
  void services.ui.message('info', l10n.t('Cloud store "{0}" deleted.', store.name), {});
  return true;
}

function storeOf(arg: unknown): Store | undefined {
  const v = typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'store' ? (arg as { record?: unknown }).record : arg;
  if (typeof v === 'object' && v !== null && typeof (v as Store).id === 'string' && typeof (v as Store).name === 'string') return v as Store;
  return undefined;
}
