import type { ExtensionServices } from '../../services';
import { parseIds, targetsOf, type Targets } from './targets';

/** Targets from the arguments, or asked for (palette); undefined when refused or cancelled. */
export async function resolveTargets(services: ExtensionServices, title: string, args: unknown[]): Promise<Targets | undefined> {
  const given = targetsOf(...args);
  if (given && 'error' in given) {
    await services.ui.message('error', given.error, {});
    return undefined;
  }
  if (given) return given;
  const kind = await services.ui.pick(
    [
      { label: 'Catalog entries', description: 'by catalog id', key: 'catalog' as const },
      { label: 'Order items', description: 'everything fulfilled for an order item', key: 'orderItem' as const },
    ],
    { title, placeHolder: 'What to send?' },
  );
  if (!kind) return undefined;
  const text = await services.ui.input({
    title,
    prompt: kind.key === 'catalog' ? 'Catalog ids (separate several with commas)' : 'Order item ids (separate several with commas)',
    ignoreFocusOut: true,
    validateInput: (v) => (parseIds(v).length ? undefined : 'Enter at least one id.'),
  });
  if (text === undefined) return undefined;
  const ids = parseIds(text);
  return kind.key === 'catalog' ? { catalogIds: ids } : { orderItemIds: ids };
}
