/**
 * What the watcher follows, as it is kept in the extension's global state: kinds, ids and the
 * service they live on (never a name, a token or a signed URL), so a window reload, or another
 * window, picks the list up again. Pure: whatever the state holds is read defensively, since
 * an older version or a hand-edited state may have left anything there.
 */
import { isObj } from '../api/shape';

/** The kinds of things the watcher follows; one follower module each (./followers). */
export const WATCH_KINDS = ['orderItem', 'delivery', 'download', 'insightRun', 'job'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** A followed thing: its kind, its id, and the record it is read under (an insight run's AOI, a job's workflow). */
export interface WatchRef {
  readonly kind: WatchKind;
  readonly id: string;
  readonly parent?: string;
  /**
   * The base URL of the service it was followed on. Only things of the service signed in now
   * are read: another account's ids would answer 404 there, and be said to be gone. Absent in
   * lists stored before it was kept: then it is read on whichever service is signed in.
   */
  readonly service?: string;
  /** When it was first followed (ms since the epoch): things older than `FORGET_AFTER_MS` are dropped. */
  readonly since: number;
}

/** The global-state key. */
export const FOLLOWED_KEY = 'eoImagery.watch.followed';

/** Tasking orders can take weeks; past this nothing is polled for ever. */
export const FORGET_AFTER_MS = 60 * 24 * 60 * 60_000;

/** At most this many things are followed; the oldest go first. */
export const MAX_FOLLOWED = 200;

const ID = /^[A-Za-z0-9._:-]{1,200}$/;

export function refKey(ref: Pick<WatchRef, 'kind' | 'id'>): string {
  return `${ref.kind}:${ref.id}`;
}

export function isWatchKind(v: unknown): v is WatchKind {
  return typeof v === 'string' && (WATCH_KINDS as readonly string[]).includes(v);
}

/** The stored form: a versioned list. */
export interface StoredFollowed {
  v: 1;
  refs: { kind: WatchKind; id: string; parent?: string; service?: string; since: number }[];
}

export function encodeFollowed(refs: readonly WatchRef[]): StoredFollowed {
  return {
    v: 1,
    refs: refs
      .slice(-MAX_FOLLOWED)
      .map((r) => ({ kind: r.kind, id: r.id, ...(r.parent ? { parent: r.parent } : {}), ...(r.service ? { service: r.service } : {}), since: r.since })),
  };
}

/**
 * The refs in a stored value: unknown kinds, malformed ids, duplicates and things followed
 * longer than `FORGET_AFTER_MS` are dropped; anything else in the value is ignored.
 */
export function decodeFollowed(stored: unknown, now: number): WatchRef[] {
  if (!isObj(stored) || stored.v !== 1 || !Array.isArray(stored.refs)) return [];
  const seen = new Set<string>();
  const out: WatchRef[] = [];
  for (const r of stored.refs) {
    if (!isObj(r) || !isWatchKind(r.kind) || typeof r.id !== 'string' || !ID.test(r.id)) continue;
    if (r.parent !== undefined && (typeof r.parent !== 'string' || !ID.test(r.parent))) continue;
    if ((r.kind === 'insightRun' || r.kind === 'job') && r.parent === undefined) continue;
    const since = typeof r.since === 'number' && Number.isFinite(r.since) ? r.since : now;
    if (now - since > FORGET_AFTER_MS) continue;
    const service = isServiceUrl(r.service) ? { service: r.service } : {};
    const ref: WatchRef = { kind: r.kind, id: r.id, ...(typeof r.parent === 'string' ? { parent: r.parent } : {}), ...service, since };
    if (seen.has(refKey(ref))) continue;
    seen.add(refKey(ref));
    out.push(ref);
  }
  return out.slice(-MAX_FOLLOWED);
}

/** An http(s) URL of bounded length: what a stored `service` must be to be kept. */
function isServiceUrl(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 500 && /^https?:\/\/[^\s]+$/i.test(v);
}

/** Whether `ref` belongs to the service at `baseUrl` (one stored without a service belongs to any). */
export function onService(ref: Pick<WatchRef, 'service'>, baseUrl: string): boolean {
  return ref.service === undefined || ref.service === baseUrl;
}

/** Whether `id` may be followed (what `decodeFollowed` would keep). */
export function isFollowableId(id: string): boolean {
  return ID.test(id);
}
