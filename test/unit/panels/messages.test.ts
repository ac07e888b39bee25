import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COPY_TEXT_MAX, MAP_FROM_PAGE, MAP_TO_PAGE } from '../../../src/panels/mapMessages';
import { STAC_FROM_PAGE } from '../../../src/panels/stacMessages';
import { JOB_GRAPH_FROM_PAGE } from '../../../src/panels/jobGraph/protocol';
import { Dispatcher, logOnce, row, type Fields, type Table } from '../../../src/panels/webview/messages';

const TABLE = {
  hello: row<{ name: string }>((m) => typeof m.name === 'string'),
  boom: row(),
};

function router(handled: unknown[], warned: string[]) {
  return new Dispatcher(
    TABLE,
    {
      hello: (m) => void handled.push(m.name),
      boom: async () => {
        throw new Error('it broke');
      },
    },
    logOnce('test', { warn: (t) => warned.push(t) }, (e) => (e as Error).message),
  );
}

/** Whether a table's row accepts `m` (a message of no row is refused too). */
function accepts(table: Table, m: Fields): boolean {
  return Object.hasOwn(table, m.type as string) && table[m.type as string].check(m);
}

describe('a webview message dispatcher', () => {
  it('hands a well-formed message to its handler', async () => {
    const handled: unknown[] = [];
    const warned: string[] = [];
    await router(handled, warned).receive({ type: 'hello', name: 'Ada' });
    assert.deepEqual(handled, ['Ada']);
    assert.deepEqual(warned, []);
  });

  it('refuses missing or wrongly typed fields and unknown types, logging once per type', async () => {
    const handled: unknown[] = [];
    const warned: string[] = [];
    const r = router(handled, warned);
    for (const m of [{ type: 'hello' }, { type: 'hello', name: 3 }, { type: 'hello' }, null, 'hello', { type: 'other' }, { type: 'toString' }, { type: 7 }]) {
      await r.receive(m);
    }
    assert.deepEqual(handled, []);
    assert.equal(warned.length, 2, warned.join('\n'));
    assert.match(warned[0], /^test: ignored a 'hello' message from the webview with missing or wrong fields/);
    assert.match(warned[1], /^test: ignored a message of no known type/);
  });

  it('logs a failing handler and resolves: nothing is left as an unhandled rejection', async () => {
    const warned: string[] = [];
    await assert.doesNotReject(router([], warned).receive({ type: 'boom' }));
    assert.deepEqual(warned, ["test: the webview's 'boom' message failed: it broke"]);
  });
});

describe("the map's message table", () => {
  const ok = (m: Fields) => accepts(MAP_FROM_PAGE, m);

  it('accept what the map webview sends', () => {
    assert.ok(ok({ type: 'ready' }));
    assert.ok(ok({ type: 'request', id: 3, request: { method: 'searchOptions' } }));
    assert.ok(ok({ type: 'open', ref: { kind: 'asset', aoiId: 'a', id: 'b' }, preview: true }));
    assert.ok(ok({ type: 'showImagery', ref: { kind: 'archiveItem', collection: 'c', id: 'i' } }));
    assert.ok(ok({ type: 'clipReply', requestId: 1, ok: false, error: 'Cancelled.', cancelled: true }));
    assert.ok(ok({ type: 'clipReply', requestId: 1, ok: true, result: { layers: [] } }));
    assert.ok(ok({ type: 'clipProgress', requestId: 1, done: 2, total: 9 }));
    assert.ok(ok({ type: 'imageryStatus', id: 'l', report: { state: 'ready', drawn: true } }));
    assert.ok(ok({ type: 'saveSearch', params: { kind: 'archive', ring: [] } }));
    assert.ok(ok({ type: 'copyText', text: 'x'.repeat(COPY_TEXT_MAX) }));
    const range = { visualization: { aoiId: 'a', id: 'v' }, date: '2026-06-01', rescale: [0.1, 0.5], colormap: 'RdYlGn' };
    assert.ok(ok({ type: 'saveColourRange', range }));
    assert.ok(ok({ type: 'saveColourRange', range: { ...range, date: undefined } }));
  });

  it('refuse wrong fields, and a copied text over 64 KiB', () => {
    assert.equal(COPY_TEXT_MAX, 64 * 1024);
    assert.ok(!ok({ type: 'copyText', text: 'x'.repeat(COPY_TEXT_MAX + 1) }));
    assert.ok(!ok({ type: 'open', ref: { kind: 'asset', id: 'b' } }));
    assert.ok(!ok({ type: 'open', ref: { kind: 'nothing', id: 'b' } }));
    assert.ok(!ok({ type: 'request', id: 1.5, request: { method: 'search' } }));
    assert.ok(!ok({ type: 'clipReply', requestId: 1, ok: 'yes' }));
    assert.ok(!ok({ type: 'orderResults', items: {} }));
    const range = { visualization: { aoiId: 'a', id: 'v' }, rescale: [0.1, 0.5], colormap: 'RdYlGn' };
    assert.ok(!ok({ type: 'saveColourRange', range: { ...range, rescale: [0.5, 0.1] } }), 'high before low');
    assert.ok(!ok({ type: 'saveColourRange', range: { ...range, rescale: [0, Infinity] } }));
    assert.ok(!ok({ type: 'saveColourRange', range: { ...range, rescale: [0.1] } }));
    assert.ok(!ok({ type: 'saveColourRange', range: { ...range, visualization: { id: 'v' } } }));
  });

  it('have no row for the test-only pixel read-back (the test page answers it to the tests alone)', () => {
    assert.ok(!Object.hasOwn(MAP_FROM_PAGE, 'imageryPixels'));
    assert.ok(!Object.hasOwn(MAP_TO_PAGE, 'imageryPixels'));
  });

  it("take the channels' rows: Save View, Chart Index Over Time, Export Timelapse", () => {
    for (const t of [
      'clipReply',
      'clipProgress',
      'seriesPoint',
      'seriesDone',
      'seriesPngReply',
      'seriesExport',
      'seriesClosed',
      'timelapseReply',
      'timelapseProgress',
      'exportTimelapse',
    ])
      assert.ok(Object.hasOwn(MAP_FROM_PAGE, t), t);
    for (const t of ['clipInfo', 'clip', 'clipCancel', 'seriesStart', 'seriesCancel', 'seriesPng', 'timelapseSource', 'timelapse', 'timelapseCancel'])
      assert.ok(Object.hasOwn(MAP_TO_PAGE, t), t);
    assert.ok(ok({ type: 'timelapseProgress', requestId: 4, done: 1, total: 3, date: '2026-05-01' }));
    assert.ok(!ok({ type: 'timelapseProgress', requestId: 4, done: -1, total: 3, date: '2026-05-01' }));
    assert.ok(ok({ type: 'seriesPngReply', requestId: 2, ok: true, bytes: new ArrayBuffer(4) }));
    assert.ok(!ok({ type: 'seriesPngReply', requestId: 2, ok: true, bytes: 'png' }));
    assert.ok(!ok({ type: 'seriesExport', format: 'xlsx' }));
  });
});

describe('the STAC and job graph pages’ message tables', () => {
  it('accept what the pages send and refuse the rest', () => {
    assert.ok(accepts(STAC_FROM_PAGE, { type: 'action', action: 'order' }));
    assert.ok(!accepts(STAC_FROM_PAGE, { type: 'action', action: 'deleteEverything' }));
    assert.ok(accepts(STAC_FROM_PAGE, { type: 'copy', text: 'https://example.com/a.tif' }));
    assert.ok(!accepts(STAC_FROM_PAGE, { type: 'copy', text: 'x'.repeat(100_000) }));
    assert.ok(!accepts(STAC_FROM_PAGE, { type: 'openExternal', url: 7 }));
    assert.ok(accepts(JOB_GRAPH_FROM_PAGE, { type: 'openLog', taskId: 'ndvi' }));
    assert.ok(!accepts(JOB_GRAPH_FROM_PAGE, { type: 'openLog' }));
    assert.ok(accepts(JOB_GRAPH_FROM_PAGE, { type: 'refresh' }));
  });
});
