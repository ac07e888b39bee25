/**
 * Tool: follow orders (newest first, or one order's items), the insight runs on an AOI,
 * deliveries and downloads, and everything EO Imagery's watcher follows: status in words,
 * progress where the service gives it, amounts with the billing unit, ids alongside. A
 * delivery, a download and the followed things are read through the watcher's own followers
 * (watch/followers.ts), so the tool words them as the status bar's pending list does.
 */
import { l10n } from 'vscode';
import { ApiError, isNotSupported, type EoClient, type Insight } from '../api';
import { describeError } from '../ui/showError';
import type { WatchKind } from '../watch/followed';
import { FOLLOWERS, type Snapshot } from '../watch/followers';
import type { Pending } from '../watch/watcher';
import { amountText } from '../ui/amounts';
import { enumLabel } from '../format';
import { Fields } from './input';
import { findAoi } from './lookup';
import { answer, dataNotice, dayOf, pageFooter, quoted, row, ROWS_PER_PAGE } from './text';
import { tool, type ToolServices } from './tool';

interface Input {
  aoi?: string;
  order?: string;
  delivery?: string;
  download?: string;
  deliveries?: boolean;
  pending?: boolean;
  page: number;
}

const MODES = ['aoi', 'order', 'delivery', 'download', 'deliveries', 'pending'] as const;

const words = (status: string | undefined, field?: Parameters<typeof enumLabel>[1]): string => quoted(enumLabel(status, field));

export const statusTool = (services: ToolServices) =>
  tool<Input>({
    kind: 'reads',
    action: l10n.t('Report status'),
    read: (input) => {
      const f = new Fields(input);
      const v: Input = {
        aoi: f.string('aoi', false, 200),
        order: f.string('order', false, 100),
        delivery: f.string('delivery', false, 200),
        download: f.string('download', false, 200),
        deliveries: f.boolean('deliveries') || undefined,
        pending: f.boolean('pending') || undefined,
        page: f.page(),
      };
      const given = MODES.filter((m) => v[m] !== undefined);
      if (given.length > 1) f.problems.push(l10n.t('Give one of {0}, not several.', MODES.map((m) => `"${m}"`).join(', ')));
      return f.done(v);
    },
    progress: (i) =>
      i.aoi
        ? l10n.t('Reading the insight runs on {0}…', i.aoi)
        : i.order
          ? l10n.t('Reading order {0}…', i.order)
          : i.delivery
            ? l10n.t('Reading a delivery…')
            : i.download
              ? l10n.t('Reading a download…')
              : i.deliveries
                ? l10n.t('Reading your deliveries…')
                : i.pending
                  ? l10n.t('Reading what EO Imagery follows…')
                  : l10n.t('Reading your orders…'),
    run: async ({ aoi, order, delivery, download, deliveries, pending, page }) => {
      const client = await services.connection.getClient();
      if (pending) return pendingAnswer(services, client, page);
      if (delivery) return oneFollowed(client, 'delivery', delivery);
      if (download) return oneFollowed(client, 'download', download);
      if (deliveries) return deliveriesAnswer(client, page);
      if (aoi) return runsAnswer(client, aoi, page);
      if (order) return orderAnswer(client, order);
      const res = await client.orders.listPage({ offset: (page - 1) * ROWS_PER_PAGE, limit: ROWS_PER_PAGE });
      const followed = services.watcher.size;
      return answer(
        dataNotice(),
        followed
          ? l10n.t('EO Imagery follows {0} pending order items, deliveries, downloads or runs: call again with "pending": true to read them.', followed)
          : undefined,
        l10n.t('Orders, newest first (call again with "order" for one order\'s items):'),
        ...res.items.map((o) =>
          row(
            `- ${quoted((o.order_items ?? []).map((i) => i.name).join(', ') || l10n.t('(unnamed)'))}`,
            l10n.t('status {0}', words(o.status)),
            l10n.t('total amount {0}', amountText(o.total_amount)),
            l10n.t('placed {0}', dayOf(o.created_at)),
            l10n.t('id {0}', quoted(o.id ?? '?')),
          ),
        ),
        pageFooter({ page, shown: res.items.length, total: res.total, hasMore: res.items.length === ROWS_PER_PAGE }, l10n.t('orders')),
      );
    },
  });

/** Deliveries to cloud stores, newest first, a page of them. */
async function deliveriesAnswer(client: EoClient, page: number): Promise<string> {
  const all = await client.deliveries.list();
  all.sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''));
  const shown = all.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  return answer(
    dataNotice(),
    l10n.t('Deliveries to cloud stores, newest first:'),
    ...shown.map((d) => {
      const s = FOLLOWERS.delivery.snapshot(d);
      return row(
        `- ${quoted(s.name)}`,
        l10n.t('status {0}', quoted(s.words)),
        l10n.t('started {0}', dayOf(d.created_at)),
        l10n.t('id {0}', quoted(d.delivery_id)),
      );
    }),
    pageFooter({ page, shown: shown.length, total: all.length, hasMore: false }, l10n.t('deliveries')),
  );
}

/** The insight runs on an AOI (by name or id), newest first, a page of them. */
async function runsAnswer(client: EoClient, aoi: string, page: number): Promise<string> {
  const found = await findAoi(client, aoi);
  if (!found.ok) return found.reason;
  const runs = await client.insightRuns.list(found.value.aoi_id).catch((err: unknown) => {
    // A service without insight runs (beyond the interface): none to report.
    if (isNotSupported(err)) return [] as Insight[];
    throw err;
  });
  const shown = runs.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  return answer(
    dataNotice(),
    l10n.t('Insight runs on AOI {0}, newest first:', quoted(found.value.name)),
    ...shown.map((r) =>
      row(
        `- ${quoted(r.name)}`,
        r.block ? l10n.t('block {0} {1}', quoted(r.block.name), quoted(r.block.version)) : undefined,
        l10n.t('status {0}', words(r.status)),
        typeof r.progress === 'number' ? l10n.t('{0} % done', Math.round(r.progress)) : undefined,
        r.err_msg ? l10n.t('why it failed: {0}', quoted(r.err_msg)) : undefined,
        l10n.t('started {0}', dayOf(r.created_at)),
        l10n.t('id {0}', quoted(r.id)),
      ),
    ),
    pageFooter({ page, shown: shown.length, total: runs.length, hasMore: false }, l10n.t('runs')),
  );
}

/** One order and its items. */
async function orderAnswer(client: EoClient, order: string): Promise<string> {
  const o = await client.orders.get(order);
  return answer(
    dataNotice(),
    row(
      l10n.t('Order {0}', quoted(o.id ?? order)),
      l10n.t('status {0}', words(o.status)),
      l10n.t('total amount {0}', amountText(o.total_amount)),
      l10n.t('placed {0}', dayOf(o.created_at)),
    ),
    ...(o.order_items ?? []).map((i) =>
      row(`- ${quoted(i.name)}`, l10n.t('status {0}', words(i.status)), l10n.t('final amount {0}', amountText(i.final_amount)), l10n.t('id {0}', quoted(i.id))),
    ),
  );
}

/** A followed thing's row: name, kind, status in words, progress, since when, id. */
function followedRow(kind: WatchKind, id: string, snap: Snapshot | undefined, since?: number, failure?: string): string {
  return row(
    `- ${snap ? quoted(snap.name) : quoted(FOLLOWERS[kind].noun())}`,
    FOLLOWERS[kind].noun(),
    failure ? l10n.t('could not be read: {0}', quoted(failure)) : snap ? l10n.t('status {0}', quoted(snap.words)) : undefined,
    snap?.progress !== undefined ? l10n.t('{0} % done', Math.round(snap.progress)) : undefined,
    snap ? outcomeWords(snap) : undefined,
    since !== undefined ? l10n.t('followed since {0}', dayOf(new Date(since).toISOString())) : undefined,
    l10n.t('id {0}', quoted(id)),
  );
}

function outcomeWords(s: Snapshot): string {
  return s.outcome === 'pending' ? l10n.t('still going') : s.outcome === 'done' ? l10n.t('finished') : l10n.t('failed');
}

/** One delivery or download, read now through the watcher's follower (no link is ever shown). */
async function oneFollowed(client: EoClient, kind: 'delivery' | 'download', id: string): Promise<string> {
  const f = FOLLOWERS[kind];
  const read = await f.read(client, [{ kind, id, since: Date.now() }], new AbortController().signal).catch((err: unknown) => {
    // A 404 is an answer: there is no such one (said below); anything else is the wrapper's.
    if (err instanceof ApiError && err.status === 404) return new Map<string, unknown>();
    throw err;
  });
  const record = read.get(id);
  if (record === undefined) return l10n.t('The service has no {0} with id {1}.', f.noun().toLowerCase(), quoted(id));
  return answer(dataNotice(), followedRow(kind, id, f.snapshot(record)));
}

/**
 * What the watcher follows, each read now by its follower (things that share a request, the
 * runs of one AOI, are read once): a page of rows, oldest first.
 */
async function pendingAnswer(services: ToolServices, client: EoClient, page: number): Promise<string> {
  const all = services.watcher.pending();
  if (!all.length) return l10n.t('Nothing is pending: EO Imagery follows no order item, delivery, download or insight run right now.');
  const shown = all.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  const groups = new Map<string, Pending[]>();
  for (const p of shown) {
    const key = FOLLOWERS[p.ref.kind].shareKey(p.ref);
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const rows = new Map<Pending, string>();
  const signal = new AbortController().signal;
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const f = FOLLOWERS[group[0].ref.kind];
      try {
        const read = await f.read(
          client,
          group.map((p) => p.ref),
          signal,
        );
        for (const p of group) {
          const record = read.get(p.ref.id);
          rows.set(
            p,
            followedRow(
              p.ref.kind,
              p.ref.id,
              record === undefined ? undefined : f.snapshot(record),
              p.ref.since,
              record === undefined ? l10n.t('the service no longer has it') : undefined,
            ),
          );
        }
      } catch (err) {
        // One kind that cannot be read now does not hide the others: its rows say why.
        for (const p of group) rows.set(p, followedRow(p.ref.kind, p.ref.id, p.snapshot, p.ref.since, describeError(err)));
      }
    }),
  );
  return answer(
    dataNotice(),
    l10n.t('What EO Imagery follows until it finishes, oldest first (read just now):'),
    ...shown.map((p) => rows.get(p) ?? ''),
    pageFooter({ page, shown: shown.length, total: all.length, hasMore: false }, l10n.t('followed')),
  );
}
