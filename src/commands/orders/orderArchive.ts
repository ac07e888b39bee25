/**
 * Order archive imagery: items → project, name, use case, optional cloud delivery (store and
 * path) → dry run → priced summary → Confirm places the order once → revealed in Orders.
 */
import { l10n } from 'vscode';
import type { ArchiveItem, EoClient, Geometry, OrderItemRequest, OrderRecord, Project, Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, type Step } from '../../ui/multiStep';
import { showError } from '../../ui/showError';
import { day } from '../../format';
import { usecaseOf } from './usecase';
import {
  clientFor,
  usecaseStep,
  emptyOrderEntries,
  loadProjects,
  pathStep,
  projectStep,
  requireNonEmpty,
  storeStep,
  textStep,
  type OrderEntries,
} from './common';
import { collectionOfFootprints } from './orderGeometry';
import { priceAndPlace } from './placeOrder';

/** An archive item as callers may hand it over; only these fields are needed. */
export interface ArchiveItemLike {
  id: string;
  collection: string;
  geometry?: Geometry;
  properties?: { title?: string; datetime?: string | null; [k: string]: unknown };
}

/**
 * Argument contract of `eoImagery.orderArchiveItems` (map, STAC item panel, Archive view,
 * palette). Accepted, in any mix:
 * - an `ArchiveItem` (a STAC Feature with `id`, `collection`, `geometry`), or an array of them;
 * - a reference `{collection, id}` (or an array): the item is read from the archive first;
 * - a sidebar row `{kind: 'archiveItem', record: ArchiveItem}`; from a multi-selection VS Code
 *   calls `(clickedRow, selectedRows[])`, and the selection wins;
 * - nothing (palette): the person types `collection/item-id` references.
 * Items without a footprint are read again so the order's geometry is the real footprint.
 */
export type OrderArchiveArg = ArchiveItemLike | { collection: string; id: string } | { kind: 'archiveItem'; record: ArchiveItemLike };

export function archiveRefsOf(...args: unknown[]): ArchiveItemLike[] {
  const [first, second] = args;
  const source = Array.isArray(second) && second.length > 0 ? second : first;
  const list = Array.isArray(source) ? source : source === undefined || source === null ? [] : [source];
  const out: ArchiveItemLike[] = [];
  const seen = new Set<string>();
  for (const raw of list) {
    const v = isRecord(raw) && raw.kind === 'archiveItem' && isRecord(raw.record) ? raw.record : raw;
    if (!isRecord(v) || typeof v.id !== 'string' || typeof v.collection !== 'string') continue;
    const key = `${v.collection}/${v.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v as unknown as ArchiveItemLike);
  }
  return out;
}

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

async function resolveItems(client: EoClient, refs: ArchiveItemLike[]): Promise<ArchiveItem[] | ArchiveItemLike[]> {
  return Promise.all(refs.map(async (r) => (r.geometry ? r : client.archives.item(r.collection, r.id))));
}

type ArchiveOrderState = OrderEntries;

/** Resolves with the placed order, or undefined when nothing was placed. */
export async function orderArchiveItems(services: CommandServices, ...args: unknown[]): Promise<OrderRecord | undefined> {
  const action = l10n.t('Order archive imagery');
  const client = await clientFor(services, action);
  if (!client) return undefined;
  let refs = archiveRefsOf(...args);
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

  let items: ArchiveItemLike[];
  try {
    items = await resolveItems(client, refs);
  } catch (err) {
    await showError(services, l10n.t('Reading the archive items'), err, () => orderArchiveItems(services, ...args));
    return undefined;
  }
  const footprints = collectionOfFootprints(items.filter((i): i is ArchiveItemLike & { geometry: Geometry } => !!i.geometry));
  if (!footprints.features.length) {
    await services.ui.message('error', l10n.t('These archive items have no footprint (Polygon) to order.'), {});
    return undefined;
  }

  const first = items[0];
  const defaultName = items.length === 1 ? first.properties?.title || first.id : l10n.t('{0} archive scenes ({1})', items.length, first.collection);
  const state: ArchiveOrderState = emptyOrderEntries(defaultName);
  let projects: Promise<Project[]> | undefined;
  let stores: Promise<Store[]> | undefined;
  const steps: Step<ArchiveOrderState>[] = [
    projectStep(() => (projects ??= loadProjects(client))),
    textStep(
      l10n.t('Name'),
      l10n.t('Name of the order item'),
      (s) => s.name,
      (s, v) => (s.name = v),
      requireNonEmpty(l10n.t('a name')),
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
  try {
    if (!(await wizard.run())) return undefined;
  } catch (err) {
    await showError(services, action, err);
    return undefined;
  }
  const scenes = items.map((i) => ({ id: i.id, title: i.properties?.title || i.id, date: i.properties?.datetime ?? undefined }));
  return priceAndPlace(
    services,
    client,
    wizard,
    (s) => [archiveItemRequest(s, items, footprints)],
    (s) => ({ store: s.storeLabel, scenes }),
  );
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
