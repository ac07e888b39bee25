/**
 * The extension's side of Chart Index Over Time (src/panels/imagery/seriesChannel.ts) on its
 * table's rows (seriesMessages.ts): what the page sends goes through the same dispatcher the
 * map uses, checked first, to the channel's handlers.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { SeriesCancelled, SeriesChannel } from '../../../src/panels/imagery/seriesChannel';
import { SERIES_FROM_PAGE, type SeriesPoint, type SeriesRequest, type ToMapSeriesMessage } from '../../../src/panels/imagery/seriesMessages';
import { MAP_FROM_PAGE, MAP_TO_PAGE } from '../../../src/panels/mapMessages';
import { Dispatcher } from '../../../src/panels/webview/messages';

const date = (d: string) => ({ date: d, source: `item-${d}`, spec: {} as SeriesRequest['dates'][number]['spec'] });
const REQUEST: SeriesRequest = {
  title: 'Lake',
  index: { name: 'NDVI', expression: '(B8-B4)/(B8+B4)' },
  polygon: null,
  dates: [date('2026-05-01'), date('2026-05-11')],
};
const POINT = { date: '2026-05-11', source: 'item-2026-05-11', pixels: 4, valid: 4, validShare: 1, mean: 0.5 } as SeriesPoint;

function setup() {
  const sent: ToMapSeriesMessage[] = [];
  const refused: (string | undefined)[] = [];
  const exports: string[] = [];
  const channel = new SeriesChannel(
    (m) => sent.push(m),
    (format) => exports.push(format),
    () => Promise.reject(new Error('no reads in this test')),
  );
  const page = new Dispatcher(SERIES_FROM_PAGE, channel.handlers, { refused: (t) => refused.push(t), failed: (t, e) => assert.fail(`${t}: ${String(e)}`) });
  return { channel, page, sent, refused, exports };
}

describe('series channel', () => {
  it('starts a series, hears each point as it comes, and resolves once done', async () => {
    const { channel, page, sent } = setup();
    const heard: number[] = [];
    const done = channel.start(REQUEST, { onPoint: (i) => heard.push(i) });
    assert.deepEqual(sent, [{ type: 'seriesStart', requestId: 1, request: REQUEST, host: true }]);
    await page.receive({ type: 'seriesPoint', requestId: 1, index: 1, point: POINT });
    // a point past the dates it asked for is not a point of this series
    await page.receive({ type: 'seriesPoint', requestId: 1, index: 2, point: POINT });
    await page.receive({ type: 'seriesDone', requestId: 1, ok: true });
    const state = await done;
    assert.deepEqual(state.points, [undefined, POINT]);
    assert.deepEqual(heard, [1]);
    assert.equal(channel.last, state);
  });

  it("refuses a page's message whose fields fail its row, before the channel sees it", async () => {
    const { channel, page, refused } = setup();
    const heard: number[] = [];
    const done = channel.start(REQUEST, { onPoint: (i) => heard.push(i) });
    await page.receive({ type: 'seriesPoint', requestId: 1, index: 'first', point: POINT });
    await page.receive({ type: 'seriesDone', requestId: 1, ok: 'yes' });
    await page.receive({ type: 'seriesExport', format: 'xlsx' });
    assert.deepEqual(refused, ['seriesPoint', 'seriesDone', 'seriesExport']);
    assert.deepEqual(heard, []);
    channel.dropAll('closed');
    await assert.rejects(done, /closed before the chart was ready/);
  });

  it('passes a cancel on; a failed series and a hidden map say why', async () => {
    const { channel, page, sent } = setup();
    const abort = new AbortController();
    const cancelled = channel.start(REQUEST, { signal: abort.signal });
    abort.abort();
    await assert.rejects(cancelled, SeriesCancelled);
    assert.deepEqual(sent.at(-1), { type: 'seriesCancel', requestId: 1 });
    const failed = channel.start(REQUEST);
    await page.receive({ type: 'seriesDone', requestId: 2, ok: false, error: 'The file could not be read.' });
    await assert.rejects(failed, /could not be read/);
    const png = channel.png();
    channel.dropAll('hidden');
    await assert.rejects(png, /hidden while the chart was being computed/);
  });

  it("answers the chart's PNG, and hears the chart's Export buttons and its closing", async () => {
    const { channel, page, exports } = setup();
    const png = channel.png();
    await page.receive({ type: 'seriesPngReply', requestId: 1, ok: true, bytes: new Uint8Array([137, 80]).buffer });
    assert.deepEqual([...(await png)], [137, 80]);
    void channel.start(REQUEST).catch(() => undefined);
    await page.receive({ type: 'seriesExport', format: 'csv' });
    await page.receive({ type: 'seriesClosed' });
    assert.deepEqual(exports, ['csv']);
    assert.equal(channel.last, undefined);
    channel.dropAll('closed');
  });

  it("is in the map's tables: its rows are the map's rows", () => {
    for (const t of Object.keys(SERIES_FROM_PAGE))
      assert.equal((MAP_FROM_PAGE as Record<string, unknown>)[t], SERIES_FROM_PAGE[t as keyof typeof SERIES_FROM_PAGE]);
    for (const t of ['seriesStart', 'seriesCancel', 'seriesPng']) assert.ok(Object.hasOwn(MAP_TO_PAGE, t));
  });
});
