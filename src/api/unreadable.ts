/**
 * Records of a listing that do not fit their shape. One odd record must not fail a whole page:
 * it is left out, the rest is shown, and the view says how many could not be read and why
 * (the log names the field). Pure.
 */
import { isObj, ShapeError } from './shape';

/** A record of a listing that could not be read. */
export interface UnreadableRecord {
  /** Where it was in the answer: `features[3]`, `items["S2_…"]`. */
  at: string;
  /** Its id, when it has one that reads. */
  id?: string;
  /** The field that did not fit, and how: `features[3].properties: expected object, got null`. */
  reason: string;
}

/** A listing's answer that left records out. */
export interface WithUnreadable {
  unreadable?: UnreadableRecord[];
}

function recordId(raw: unknown): string | undefined {
  if (!isObj(raw)) return undefined;
  const id = raw.id ?? raw.aoi_id;
  return typeof id === 'string' && id !== '' ? id.slice(0, 200) : undefined;
}

/**
 * Each raw record read with `read` (which throws `ShapeError` when it does not fit): the
 * records that fit, in order, and the ones that did not.
 */
export function readRecords<R, T>(
  list: readonly R[],
  at: (index: number) => string,
  read: (raw: R, where: string) => T,
  idOf: (raw: R) => string | undefined = recordId,
): { items: T[]; unreadable: UnreadableRecord[] } {
  const items: T[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (let i = 0; i < list.length; i++) {
    const where = at(i);
    try {
      items.push(read(list[i], where));
    } catch (e) {
      if (!(e instanceof ShapeError)) throw e;
      unreadable.push({ at: where, id: idOf(list[i]), reason: e.message });
    }
  }
  return { items, unreadable };
}

/** `list` with the records left out of it attached (arrays keep every array method). */
export function withUnreadable<L extends object>(list: L, unreadable: UnreadableRecord[]): L & WithUnreadable {
  if (unreadable.length > 0) Object.defineProperty(list, 'unreadable', { value: unreadable, enumerable: false, configurable: true, writable: true });
  return list as L & WithUnreadable;
}

/** The records a parsed answer left out, if it says. */
export function unreadableOf(v: unknown): UnreadableRecord[] {
  const u = typeof v === 'object' && v !== null ? (v as WithUnreadable).unreadable : undefined;
  return Array.isArray(u) ? u : [];
}
