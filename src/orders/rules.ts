/**
 * What a valid order item is: the one place that decides it, for the order wizards (each
 * step's check), the chat tools (their input), order plans (`*.eoorder.json` diagnostics and
 * the check command) and the priced confirmation, which refuses a request these rules refuse
 * before it asks the service. The limits are the service's (docs/service-interface.md,
 * "Orders"; the OpenAPI's item request). Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';
import type { OrderItemRequest } from '../api/records';
import { checkDateRange, checkInteger, parseOrderDate } from './orderDates';
import { orderGeometryFromGeoJson } from './orderGeometry';

export const RECURRENCES = ['ONCE', 'WEEKLY', 'MONTHLY'] as const;
export const DELIVERY_SPEEDS = ['STANDARD', 'PRIORITY', 'RUSH'] as const;
export type Recurrence = (typeof RECURRENCES)[number];
export type DeliverySpeed = (typeof DELIVERY_SPEEDS)[number];

/** The ranges of the numbers an item carries, inclusive. */
export const LIMITS = {
  cloudCover: { min: 0, max: 100 },
  offNadir: { min: 0, max: 60 },
  occurrences: { min: 1, max: 366 },
  /** Archive scenes in one order item. */
  scenes: { min: 1, max: 100 },
  /** Polygon features in one item's geometry. */
  features: { min: 1, max: 100 },
} as const;
export const MAX_NAME = 200;
export const MAX_USECASE = 200;
export const MAX_PATH = 1024;

/** A name (of an order item): required, at most 200 characters. */
export function checkName(v: string): string | undefined {
  if (v.trim() === '') return l10n.t('Enter a name.');
  if (v.length > MAX_NAME) return l10n.t('The name is longer than {0} characters.', MAX_NAME);
  return undefined;
}

/** A use case: free text of at most 200 characters (empty takes the default, see usecase.ts). */
export function checkUsecase(v: string): string | undefined {
  return v.trim().length > MAX_USECASE ? l10n.t('The use case is longer than {0} characters.', MAX_USECASE) : undefined;
}

/** The folder inside a cloud store a delivery writes to. */
export function checkStorePath(v: string): string | undefined {
  const t = v.trim();
  if (t === '') return l10n.t('Enter a path (a folder name inside the store).');
  if (t.length > MAX_PATH) return l10n.t('The path is longer than 1,024 characters.');
  if (t.split('/').includes('..')) return l10n.t('The path may not contain "..".');
  return undefined;
}

export const checkCloudCover = (text: string): string | undefined => checkInteger(text, LIMITS.cloudCover.min, LIMITS.cloudCover.max, l10n.t('Cloud cover'));
export const checkOffNadir = (text: string): string | undefined => checkInteger(text, LIMITS.offNadir.min, LIMITS.offNadir.max, l10n.t('The off-nadir angle'));
export const checkOccurrences = (text: string): string | undefined =>
  checkInteger(text, LIMITS.occurrences.min, LIMITS.occurrences.max, l10n.t('The number of occurrences'));

/** The recurrence, and how many captures it allows: exactly one for ONCE. */
export function checkRecurrence(recurrence: string, occurrences: number): string | undefined {
  if (!(RECURRENCES as readonly string[]).includes(recurrence)) return l10n.t('The recurrence must be one of {0}.', RECURRENCES.join(', '));
  if (recurrence === 'ONCE' && occurrences !== 1) return l10n.t('A capture that happens once has exactly 1 occurrence.');
  return undefined;
}

/** One reason a request is refused: which field of the item request, and why. */
export interface OrderProblem {
  /** The item request's field, as the service names it (`start_date`, `cloud_delivery.path`, `item_ids[2]`). */
  field: string;
  message: string;
}

/**
 * Every reason this item request would be refused, checked before anything is sent. An
 * empty list does not promise the service accepts it (ids it alone knows, feasibility): the
 * dry run says the rest.
 */
export function checkOrderItem(req: OrderItemRequest): OrderProblem[] {
  const out: OrderProblem[] = [];
  const add = (field: string, message: string | undefined): void => void (message && out.push({ field, message }));
  add('name', req.name === undefined ? undefined : checkName(req.name));
  add('usecase', req.usecase === undefined || req.usecase.trim() === '' ? l10n.t('Every order item needs a use case.') : checkUsecase(req.usecase));
  const geometry = orderGeometryFromGeoJson(req.geometry);
  if (!geometry.ok) add(geometry.featureIndex === undefined ? 'geometry' : `geometry.features[${geometry.featureIndex}]`, geometry.reason);
  else if (geometry.collection.features.length > LIMITS.features.max)
    add('geometry', l10n.t('An order item holds at most {0} polygons; this one has {1}.', LIMITS.features.max, geometry.collection.features.length));
  if (req.item_ids !== undefined) {
    if (req.item_ids.length < LIMITS.scenes.min) add('item_ids', l10n.t('An archive order item needs at least one scene.'));
    if (req.item_ids.length > LIMITS.scenes.max)
      add('item_ids', l10n.t('An archive order item holds at most {0} scenes; this one has {1}.', LIMITS.scenes.max, req.item_ids.length));
    const seen = new Set<string>();
    req.item_ids.forEach((id, i) => {
      if (seen.has(id)) add(`item_ids[${i}]`, l10n.t('Scene {0} is listed twice.', id));
      seen.add(id);
    });
  } else {
    const start = parseOrderDate(req.start_date ?? '');
    if (!start.ok) add('start_date', start.reason);
    else add('end_date', checkDateRange(req.start_date ?? '', req.end_date ?? ''));
    const n = req.no_of_occurrences ?? Number.NaN;
    const count = checkOccurrences(String(n));
    add('no_of_occurrences', count ?? checkRecurrence(req.recurrence ?? '', n));
    if (!req.bandset?.bandset_id) add('bandset', l10n.t('A tasking order item needs a bandset (the bands to capture).'));
  }
  if (req.cloud_cover !== undefined) add('cloud_cover', checkCloudCover(String(req.cloud_cover)));
  if (req.off_nadir !== undefined) add('off_nadir', checkOffNadir(String(req.off_nadir)));
  if (req.delivery_speed !== undefined && !(DELIVERY_SPEEDS as readonly string[]).includes(req.delivery_speed))
    add('delivery_speed', l10n.t('The delivery speed must be one of {0}.', DELIVERY_SPEEDS.join(', ')));
  if (req.cloud_delivery) {
    if (!req.cloud_delivery.config) add('cloud_delivery.config', l10n.t('Name the cloud store to deliver to.'));
    add('cloud_delivery.path', checkStorePath(req.cloud_delivery.path ?? ''));
  }
  return out;
}

/** The problems of every item of an order, each prefixed with its item's position. */
export function orderProblems(items: readonly OrderItemRequest[]): string[] {
  return items.flatMap((req, i) =>
    checkOrderItem(req).map((p) => (items.length === 1 ? `${p.field}: ${p.message}` : `${l10n.t('Item {0}', i + 1)} ${p.field}: ${p.message}`)),
  );
}
