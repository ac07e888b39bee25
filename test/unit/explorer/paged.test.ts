import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, needsSignIn, NotSignedInError, type EoClient } from '../../../src/api';
import { PagedChildren, type LoadableList, type PageQuery, type PageResult, type RowFactory } from '../../../src/explorer/paged';

interface Item {
  id: string;
  v?: number;
}
type Row =
  | { kind: 'record'; id: string; record: Item; detached: boolean }
  | { kind: 'more'; list: LoadableList }
  | { kind: 'error'; list: LoadableList; err: unknown; readAt?: number }
  | { kind: 'signIn'; what: string }
  | { kind: 'message'; text: string }
  | { kind: 'unreadable'; what: string; count: number };

const rows: RowFactory<Row> = {
  loadMore: (list) => ({ kind: 'more', list }),
  error: (list, err, readAt) => ({ kind: 'error', list, err, readAt }),
  signIn: (what) => ({ kind: 'signIn', what }),
  message: (_key, text) => ({ kind: 'message', text }),
  unreadable: (what, records) => ({ kind: 'unreadable', what, count: records.length }),
  detach: (row) => {
    if (row.kind === 'record') row.detached = true;
  },
  update: (row, item) => {
    if (row.kind === 'record') row.record = item as Item;
  },
};

/** A fetch whose pages the test answers one by one. */
function scripted() {
  const calls: { q: PageQuery; resolve(p: PageResult<Item>): void; reject(e: unknown): void }[] = [];
  const fetch = (_client: EoClient, q: PageQuery) =>
    new Promise<PageResult<Item>>((resolve, reject) => {
      calls.push({ q, resolve, reject });
    });
  return { calls, fetch };
}

function list(fetch: (client: EoClient, q: PageQuery) => Promise<PageResult<Item>>, opts: { atRoot?: boolean; pageSize?: number } = {}) {
  const said = { successes: 0, failures: [] as unknown[], warnings: [] as string[], changes: 0 };
  const source = {
    getClient: async () => ({}) as EoClient,
    reportSuccess: () => void said.successes++,
    reportFailure: (err: unknown) => void said.failures.push(err),
    warn: (text: string) => void said.warnings.push(text),
    changed: () => void said.changes++,
  };
  const spec = {
    what: 'AOIs',
    empty: 'No AOIs in this project yet',
    pageSize: opts.pageSize ?? 2,
    fetch,
    idOf: (i: Item) => i.id,
    toNode: (i: Item): Row => ({ kind: 'record', id: i.id, record: i, detached: false }),
  };
  return { paged: new PagedChildren<Item, Row>(source, rows, spec, opts.atRoot ?? false), said };
}

const ids = (r: Row[]) => r.map((x) => (x.kind === 'record' ? x.id : `<${x.kind}>`));
const page = (...names: string[]): PageResult<Item> => ({ items: names.map((id) => ({ id })) });
/** Lets the list's awaits run (the client, then the fetch). */
const settle = () => new Promise((r) => setImmediate(r));

describe('PagedChildren', () => {
  it('a reset while a page loads discards that page, aborts its request, and loads again', async () => {
    const { calls, fetch } = scripted();
    const { paged } = list(fetch);
    const shown = paged.children();
    await settle();
    assert.equal(calls.length, 1);
    paged.reset();
    assert.equal(calls[0].q.signal.aborted, true, 'the stale request is aborted');
    calls[0].resolve(page('stale1', 'stale2'));
    await settle();
    assert.equal(calls.length, 2, 'the list loads again from the first page');
    assert.equal(calls[1].q.offset, 0);
    calls[1].resolve({ items: [{ id: 'fresh' }], total: 1 });
    assert.deepEqual(ids(await shown), ['fresh']);
    assert.equal(paged.fetches, 1, 'the stale page is not counted');
    assert.equal(paged.shown, 1);
  });

  it('a list reset again and again while it loads answers what its last load found, never a lone "Load more…"', async () => {
    // What main did on a 401 (the integration test "a 401 shows a Sign in again row" failed
    // so, once in a full run): the 401 moved the connection to failing, every change of the
    // connection reset the views whose last error asked for a sign-in (this one, whose error
    // was set just before it was reported), and other views' pages landing in between moved
    // it back to connected, so the next 401 changed it again. After three such resets
    // children() gave up and answered a list that had not started: a lone "Load more…".
    const unauthorized = () => new ApiError({ kind: 'http', method: 'GET', path: '/v0/orders', status: 401, detailMessage: 'Unauthorized' });
    let state: 'connected' | 'failing' = 'connected';
    const changed = () => {
      if (needsSignIn(paged.lastError)) paged.reset();
    };
    const connection = {
      getClient: async () => ({}) as EoClient,
      reportSuccess: () => {
        if (state === 'connected') return;
        state = 'connected';
        changed();
      },
      reportFailure: () => {
        if (state === 'failing') return;
        state = 'failing';
        changed();
      },
      warn: () => undefined,
      changed: () => undefined,
    };
    let requests = 0;
    const spec = {
      what: 'orders',
      empty: '',
      fetch: async (): Promise<PageResult<Item>> => {
        requests++;
        // Another view's page lands while this one is in flight (the first three times).
        if (requests <= 3) connection.reportSuccess();
        throw unauthorized();
      },
      idOf: (i: Item) => i.id,
      toNode: (i: Item): Row => ({ kind: 'record', id: i.id, record: i, detached: false }),
    };
    const paged = new PagedChildren<Item, Row>(connection, rows, spec, true);
    assert.deepEqual(ids(await paged.children()), ['<signIn>'], 'the answer of the load that was not reset');
    assert.equal(requests, 4, 'one request per reset, and one for the answer');
    assert.equal(paged.isLoading, false);
  });

  it('callers that asked before a reset and after it join one load of the list as it is now', async () => {
    const { calls, fetch } = scripted();
    const { paged } = list(fetch);
    const view = paged.children();
    await settle();
    const command = paged.children();
    paged.reset(); // a filter changed while the first page was in flight
    const afterReset = paged.children();
    await settle();
    assert.equal(calls.length, 2, 'one load before the reset, one after it, however many ask');
    calls[0].resolve(page('stale'));
    calls[1].resolve({ items: [{ id: 'fresh' }], total: 1 });
    for (const answer of await Promise.all([view, command, afterReset])) assert.deepEqual(ids(answer), ['fresh']);
    assert.equal(paged.fetches, 1, 'the stale page is dropped');
  });

  it('a reset detaches the rows it had handed out', async () => {
    const { paged } = list(async () => ({ items: [{ id: 'a' }], total: 1 }));
    const [row] = await paged.children();
    paged.reset();
    assert.equal(row.kind === 'record' && row.detached, true);
  });

  it('two "Load more" clicks while a page loads make one request', async () => {
    const { calls, fetch } = scripted();
    const { paged } = list(fetch);
    const first = paged.children();
    await settle();
    calls[0].resolve(page('a', 'b'));
    const before = await first;
    assert.deepEqual(ids(before), ['a', 'b', '<more>']);
    assert.equal((await paged.children())[2], before[2], 'one "Load more" row per list (the tree keeps its identity)');
    const one = paged.loadMore();
    const two = paged.loadMore();
    assert.equal(one, two, 'the second click joins the first');
    assert.equal(paged.isLoading, true);
    await settle();
    assert.equal(calls.length, 2);
    assert.equal(calls[1].q.offset, 2);
    calls[1].resolve({ items: [{ id: 'c' }], total: 3 });
    await Promise.all([one, two]);
    assert.equal(calls.length, 2);
    assert.equal(paged.fetches, 2);
    assert.deepEqual(ids(await paged.children()), ['a', 'b', 'c']);
    assert.equal(paged.isComplete, true);
  });

  it('a record shifted into the next page by an insert between pages is shown once', async () => {
    // the server's listing: a new record is created between the first and the second page
    let listing = ['a', 'b', 'c', 'd'];
    const { paged } = list(async (_c, q) => ({ items: listing.slice(q.offset, q.offset + q.limit).map((id) => ({ id })), total: listing.length }));
    assert.deepEqual(ids(await paged.children()), ['a', 'b', '<more>']);
    listing = ['new', ...listing];
    await paged.loadMore();
    const shown = ids(await paged.children());
    assert.deepEqual(shown, ['a', 'b', 'c', '<more>'], 'b came again at offset 2 and is skipped');
    assert.equal(new Set(shown).size, shown.length, 'no duplicates');
    await paged.loadMore();
    assert.deepEqual(ids(await paged.children()), ['a', 'b', 'c', 'd']);
  });

  it('records a page could not read are counted in one row after the records, and the reset forgets them', async () => {
    const bad = (at: string) => ({ at, reason: `${at}.properties: expected object, got null` });
    const { paged } = list(async (_c, q) =>
      q.offset === 0
        ? { items: [{ id: 'a' }], scanned: 2, unreadable: [bad('features[1]')] }
        : { items: [{ id: 'c' }], done: true, unreadable: [bad('features[0]')] },
    );
    assert.deepEqual(ids(await paged.children()), ['a', '<unreadable>', '<more>']);
    await paged.loadMore();
    const rowsNow = await paged.children();
    assert.deepEqual(ids(rowsNow), ['a', 'c', '<unreadable>']);
    const note = rowsNow[2];
    assert.ok(note.kind === 'unreadable' && note.count === 2 && note.what === 'AOIs');
    paged.reset();
    assert.deepEqual(ids(await paged.children()), ['a', '<unreadable>', '<more>'], 'counted again from the first page, not added up');
  });

  it('a failing page shows an error row with retry after the rows already loaded', async () => {
    let fail = true;
    const { paged, said } = list(async (_c, q) => {
      if (q.offset === 2 && fail) throw new Error('503 Service Unavailable');
      return { items: ['a', 'b', 'c'].slice(q.offset, q.offset + q.limit).map((id) => ({ id })), total: 3 };
    });
    await paged.children();
    await paged.loadMore();
    const shown = await paged.children();
    assert.deepEqual(ids(shown), ['a', 'b', '<error>'], 'the loaded rows stay');
    const err = shown[2];
    assert.ok(err.kind === 'error');
    assert.match(String(err.err), /503/);
    assert.equal(said.failures.length, 1, 'the connection hears of the failure');
    assert.match(said.warnings[0], /Could not load AOIs: 503/);
    // Retry: the error row's list loads the same page again
    fail = false;
    await err.list.loadMore();
    assert.deepEqual(ids(await paged.children()), ['a', 'b', 'c']);
    assert.equal(paged.lastError, undefined);
  });

  it('a refresh that fails keeps the rows shown, stale with the time they were read and Retry, and reloads by itself', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
    let down = false;
    let fetches = 0;
    const unavailable = () => new ApiError({ kind: 'http', method: 'GET', path: '/v0/aois', status: 503, detailMessage: 'Service Unavailable' });
    const { paged, said } = list(async () => {
      fetches++;
      if (down) throw unavailable();
      return { items: [{ id: 'a' }, { id: 'b', v: fetches }], total: 2 };
    });
    await paged.children();
    down = true;
    t.mock.timers.tick(60_000);
    paged.reset(true);
    const shown = await paged.children();
    assert.deepEqual(ids(shown), ['a', 'b', '<error>'], 'the rows read before stay');
    const stale = shown[2];
    assert.ok(stale.kind === 'error');
    assert.equal(stale.readAt, 1_000_000, 'marked with the time they were read');
    assert.equal(paged.staleSince, 1_000_000);
    // Retry (the row) while the service still fails: still the same rows, still stale.
    await stale.list.loadMore();
    assert.deepEqual(ids(await paged.children()), ['a', 'b', '<error>']);
    // The service is back: within the longest backoff the list reloads by itself and says so.
    down = false;
    const before = fetches;
    for (let waited = 0; waited < 8_000 && paged.staleSince !== undefined; waited += 1_000) {
      t.mock.timers.tick(1_000);
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(fetches, before + 1, 'one reload by itself');
    assert.equal(paged.staleSince, undefined);
    const fresh = await paged.children();
    assert.deepEqual(ids(fresh), ['a', 'b'], 'fresh rows, no stale row');
    assert.ok(fresh[1].kind === 'record' && fresh[1].record.v === fetches, 'the new read, not the old one');
    assert.ok(said.changes >= 1, 'the tree was told');
  });

  it('a first load that fails for a passing reason (503) loads again by itself; a later page waits for Retry', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let down = true;
    let fetches = 0;
    const { paged, said } = list(async (_c, q) => {
      fetches++;
      if (down) throw new ApiError({ kind: 'http', method: 'GET', path: '/v0/aois', status: 503, detailMessage: 'Service Unavailable' });
      return { items: ['a', 'b', 'c'].slice(q.offset, q.offset + q.limit).map((id) => ({ id })), total: 3 };
    });
    assert.deepEqual(ids(await paged.children()), ['<error>']);
    down = false;
    for (let waited = 0; waited < 8_000 && fetches < 2; waited += 1_000) {
      t.mock.timers.tick(1_000);
      await new Promise((r) => setImmediate(r));
    }
    await settle();
    assert.equal(fetches, 2, 'one load by itself');
    assert.deepEqual(ids(await paged.children()), ['a', 'b', '<more>']);
    assert.ok(said.changes >= 1, 'the tree was told');
    // the next page fails: it waits for its Retry, with the rows above it kept
    down = true;
    await paged.loadMore();
    t.mock.timers.tick(30_000);
    await settle();
    assert.equal(fetches, 3, 'no load by itself after a later page');
    assert.deepEqual(ids(await paged.children()), ['a', 'b', '<error>']);
  });

  it('a first load refused for a reason that will not pass (404) waits for Retry', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let fetches = 0;
    const { paged } = list(async () => {
      fetches++;
      throw new ApiError({ kind: 'http', method: 'GET', path: '/v0/aois', status: 404, detailMessage: 'Not Found' });
    });
    assert.deepEqual(ids(await paged.children()), ['<error>']);
    t.mock.timers.tick(30_000);
    await settle();
    assert.equal(fetches, 1);
  });

  it('a reset without keep (sign-in, filter) forgets the rows: never shown as stale', async (t) => {
    // the failed first load schedules its own reload: a real timer would keep this file's
    // process alive for its 30 tries (about three minutes)
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let down = false;
    const { paged } = list(async () => {
      if (down) throw new ApiError({ kind: 'http', method: 'GET', path: '/v0/aois', status: 503, detailMessage: 'Service Unavailable' });
      return { items: [{ id: 'a' }], total: 1 };
    });
    await paged.children();
    down = true;
    paged.reset();
    assert.deepEqual(ids(await paged.children()), ['<error>']);
    assert.equal(paged.staleSince, undefined);
  });

  it('signed out: a Sign in row under a node, nothing at the top of a view (its welcome says it)', async () => {
    const signedOut = async () => {
      throw new NotSignedInError('noToken');
    };
    const under = list(signedOut);
    assert.deepEqual(ids(await under.paged.children()), ['<signIn>']);
    assert.equal(under.said.warnings.length, 0, 'not signed in is not logged as a failure');
    const top = list(signedOut, { atRoot: true });
    assert.deepEqual(ids(await top.paged.children()), []);
  });

  it('an empty list says so under a node, and shows nothing at the top of a view', async () => {
    const empty = async () => ({ items: [], total: 0 });
    const under = await list(empty).paged.children();
    assert.deepEqual(under, [{ kind: 'message', text: 'No AOIs in this project yet' }]);
    assert.deepEqual(await list(empty, { atRoot: true }).paged.children(), []);
  });
});
