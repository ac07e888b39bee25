/**
 * The two id lists of deliveries and downloads (`catalog_ids`, `order_item_ids`).
 *
 * The interface says to send one or the other; the OpenAPI marks both required while saying
 * not to send one with the other (docs/service-interface.md, "Deliveries and downloads").
 * We send the list in use. If the service answers 400 naming the other list as missing, we
 * send once more with that list as `[]` — safe, because a 400 created nothing — and remember
 * for the rest of the session that this service wants both lists.
 */
import { ApiError } from './errors';

export type IdListName = 'catalog_ids' | 'order_item_ids';

export interface IdLists {
  catalog_ids?: string[];
  order_item_ids?: string[];
}

/** Which list a request uses; throws `TypeError` for both or neither (checked before sending). */
export function listInUse(req: IdLists, what: string): IdListName {
  const both = req.catalog_ids !== undefined && req.order_item_ids !== undefined;
  const neither = req.catalog_ids === undefined && req.order_item_ids === undefined;
  if (both || neither) throw new TypeError(`${what}: give either catalog_ids or order_item_ids, not ${both ? 'both' : 'neither'}`);
  return req.catalog_ids !== undefined ? 'catalog_ids' : 'order_item_ids';
}

function otherList(name: IdListName): IdListName {
  return name === 'catalog_ids' ? 'order_item_ids' : 'catalog_ids';
}

/** True when `err` is a 400 whose message or details name `list` (the list we did not send). */
export function namesMissingList(err: unknown, list: IdListName): boolean {
  if (!(err instanceof ApiError) || err.kind !== 'http' || err.status !== 400) return false;
  const text = `${err.serverMessage} ${typeof err.details === 'string' ? err.details : JSON.stringify(err.details)}`;
  return text.includes(list);
}

/** The session's memory of which form the service wants; one per client. */
export class IdListForm {
  private wantsBoth = false;

  /** True once a service has asked for both lists in this session. */
  get bothLists(): boolean {
    return this.wantsBoth;
  }

  /**
   * Send `items` (each using one list) with `send`. When the session already knows the service
   * wants both lists, the unused one goes as `[]` from the start; otherwise a 400 naming the
   * unused list of any item leads to exactly one more attempt with every unused list as `[]`.
   */
  async send<T, R extends IdLists>(items: R[], send: (items: R[]) => Promise<T>): Promise<T> {
    const used = items.map((item, i) => listInUse(item, items.length > 1 ? `item ${i + 1}` : 'request'));
    const padded = (): R[] => items.map((item, i) => ({ ...item, [otherList(used[i])]: [] }));
    if (this.wantsBoth) return send(padded());
    try {
      return await send(items);
    } catch (err) {
      const unused = new Set(used.map(otherList));
      if (![...unused].some((name) => namesMissingList(err, name))) throw err;
      const answer = await send(padded());
      this.wantsBoth = true;
      return answer;
    }
  }
}
