/**
 * Order archive imagery: items → project, name, use case, optional cloud delivery (store and
 * path) → dry run → priced summary → Confirm places the order once → revealed in Orders.
 */
import { l10n } from 'vscode';
import type { ArchiveItem, EoClient, Geometry, OrderItemRequest, OrderRecord, Project, Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, type Step } from '../../ui/multiStep';
import { inStep } from '../../ui/showError';
import type { ArchiveItemLike } from '../args';
import { day } from '../../format';
import { usecaseOf } from '../../orders/usecase';
import { usecaseStep, emptyOrderEntries, loadProjects, pathStep, projectStep, storeStep, textStep, type OrderEntries } from './common';
import { collectionOfFootprints } from '../../orders/orderGeometry';
import { checkName } from '../../orders/rules';
import { planScene } from '../../plans/planWrite';
import { priceAndPlace } from './placeOrder';
import type { RequestLabels } from './orderSummary';

/** `collection/id, collection/id` typed in the palette. */
export function parseItemRefs(text: string): { ok: true; refs: { collection: string; id: string }[] } | { ok: false; reason: string } {
  const refs: { collection: string; id: string }[] = [];
  for (const part of text.split(/[,\s]+/)) {
    if (!part) continue;
    const slash = part.indexOf('/');
    if (slash <= 0 || slash === part.length - 1) return { ok: false, reason: l10n.t('"{0}" is not collection/item-id.', part) };
    refs.push({ collection: part.slice(0, slash), id: part.slice(slash + 1) });
  }
  if (!refs.length) return { ok: false, reason: l10n.t('Enter at least one collection/item-id.') };
  return { ok: true, refs };
}

/** The items behind references: a reference without a footprint is read from the archive. */
export async function resolveItems(client: EoClient, refs: readonly ArchiveItemLike[]): Promise<ArchiveItem[] | ArchiveItemLike[]> {
  return Promise.all(refs.map(async (r) => (r.geometry !== undefined ? r : client.archives.item(r.collection, r.id))));
}

type ArchiveOrderState = OrderEntries;

/** Resolves with the placed order, or undefined when nothing was placed. */
/**
 * `given`: the items it was run on, in any of the forms `archiveItemsArg` reads (an item, a
 * reference, a row, a selection); none from the palette, where the person types references.
 */
export async function orderArchiveItems(services: CommandServices, given: readonly ArchiveItemLike[]): Promise<OrderRecord | undefined> {
  const action = l10n.t('Order archive imagery');
  const client = await services.connection.getClient();
  let refs = given;
  if (!refs.length) {
    const typed = await services.ui.input({
      title: action,
      prompt: l10n.t('Archive items to order, as collection/item-id (separate several with commas)'),
      placeHolder: l10n.t('e.g. sentinel-2-l2a/S2A_43RFM_20250301'),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = parseItemRefs(v);
        return r.ok ? undefined : r.reason;
      },
    });
    if (typed === undefined) return undefined;
    const parsed = parseItemRefs(typed);
    if (!parsed.ok) return undefined;
    refs = parsed.refs;
  }

  const items: ArchiveItemLike[] = await inStep(l10n.t('Reading the archive items'), () => resolveItems(client, refs));
  const parts = archiveOrderParts(items);
  if (!parts) {
    await services.ui.message('error', l10n.t('These archive items have no footprint (Polygon) to order.'), {});
    return undefined;
  }

  const first = items[0];
  const state: ArchiveOrderState = emptyOrderEntries(defaultOrderName(items));
  let projects: Promise<Project[]> | undefined;
  let stores: Promise<Store[]> | undefined;
  const steps: Step<ArchiveOrderState>[] = [
    projectStep(() => (projects ??= loadProjects(client))),
    textStep(
      l10n.t('Name'),
      l10n.t('Name of the order item'),
      (s) => s.name,
      (s, v) => (s.name = v),
      checkName,
    ),
    usecaseStep(),
    storeStep(() => (stores ??= client.stores.list()), true),
    pathStep(),
  ];
  // A scene's id is its name in STAC (the title when it has one); the date tells scenes apart.
  const firstDay = day(first.properties?.datetime ?? '');
  const title =
    items.length === 1
      ? l10n.t('Order archive scene {0}', [first.properties?.title || first.id, firstDay].filter(Boolean).join(' · '))
      : l10n.t('Order {0} archive scenes ({1})', items.length, first.collection);
  const wizard = new MultiStepInput(services.ui, title, steps, state);
  if (!(await wizard.run())) return undefined;
  return priceAndPlace(services, client, wizard, parts.build, parts.labels);
}

/** The order item's default name: the scene's title, or how many scenes of which collection. */
export function defaultOrderName(items: readonly ArchiveItemLike[]): string {
  const first = items[0];
  return items.length === 1 ? first.properties?.title || first.id : l10n.t('{0} archive scenes ({1})', items.length, first.collection);
}

/**
 * What an archive order of `items` sends (one item request over their footprints) and how the
 * confirmation names its scenes; undefined when no item has a footprint to order. Shared by the
 * wizard and the chat tool.
 */
export function archiveOrderParts(
  items: readonly ArchiveItemLike[],
): { build: (s: OrderEntries) => OrderItemRequest[]; labels: (s: OrderEntries) => RequestLabels } | undefined {
  const footprints = collectionOfFootprints(items.filter((i): i is ArchiveItemLike & { geometry: Geometry } => !!i.geometry));
  if (!footprints.features.length) return undefined;
  const scenes = items.map((i) => ({ ...planScene(i), title: i.properties?.title || i.id, date: i.properties?.datetime ?? undefined }));
  return { build: (s) => [archiveItemRequest(s, items, footprints)], labels: (s) => ({ store: s.storeLabel, project: s.projectLabel, scenes }) };
}

export function archiveItemRequest(
  s: ArchiveOrderState,
  items: readonly ArchiveItemLike[],
  geometry: ReturnType<typeof collectionOfFootprints>,
): OrderItemRequest {
  const req: OrderItemRequest = {
    project_id: s.projectId,
    name: s.name,
    usecase: usecaseOf(s.usecase),
    geometry,
    item_ids: items.map((i) => i.id),
  };
  if (s.storeId) req.cloud_delivery = { config: s.storeId, path: s.path };
  return req;
}
