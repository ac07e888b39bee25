/**
 * The extension's side of Export Timelapse (src/panels/imagery/timelapseChannel.ts) on its
 * table's rows (timelapseMessages.ts): what the page sends goes through the same dispatcher
 * the map uses, checked first, to the channel's handlers.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { TimelapseCancelled, TimelapseChannel } from '../../../src/panels/imagery/timelapseChannel';
import { TIMELAPSE_FROM_PAGE, type TimelapseRequest, type ToMapTimelapseMessage } from '../../../src/panels/imagery/timelapseMessages';
import { MAP_FROM_PAGE, MAP_TO_PAGE } from '../../../src/panels/mapMessages';
import { Dispatcher } from '../../../src/panels/webview/messages';

const REQUEST: TimelapseRequest = { title: 'Lake', width: 320, height: 240, fps: 2, format: 'gif' };
const RESULT = { bytes: new Uint8Array([71, 73, 70]), dates: ['2026-05-01'], skipped: [], width: 320, height: 240, fps: 2 };

function setup() {
  const sent: ToMapTimelapseMessage[] = [];
  const refused: (string | undefined)[] = [];
  let exports = 0;
  const channel = new TimelapseChannel(
    (m) => sent.push(m),
    () => exports++,
  );
  const page = new Dispatcher(TIMELAPSE_FROM_PAGE, channel.handlers, { refused: (t) => refused.push(t), failed: (t, e) => assert.fail(`${t}: ${String(e)}`) });
  return { channel, page, sent, refused, exports: () => exports };
}

describe('timelapse channel', () => {
  it('asks for the frames, hears each date, and resolves with the bytes', async () => {
    const { channel, page, sent } = setup();
    const heard: string[] = [];
    const done = channel.render(REQUEST, { onProgress: (n, total, date) => heard.push(`${n}/${total} ${date}`) });
    assert.deepEqual(sent, [{ type: 'timelapse', requestId: 1, request: REQUEST }]);
    await page.receive({ type: 'timelapseProgress', requestId: 1, done: 1, total: 1, date: '2026-05-01' });
    await page.receive({ type: 'timelapseReply', requestId: 1, ok: true, result: RESULT });
    assert.deepEqual(await done, RESULT);
    assert.deepEqual(heard, ['1/1 2026-05-01']);
  });

  it("refuses a page's message whose fields fail its row, before the channel sees it", async () => {
    const { channel, page, refused } = setup();
    const heard: number[] = [];
    void channel.render(REQUEST, { onProgress: (n) => heard.push(n) }).catch(() => undefined);
    await page.receive({ type: 'timelapseProgress', requestId: 1, done: 'one', total: 3, date: '2026-05-01' });
    await page.receive({ type: 'timelapseReply', requestId: 1, ok: 'yes' });
    assert.deepEqual(refused, ['timelapseProgress', 'timelapseReply']);
    assert.deepEqual(heard, []);
    channel.dropAll('closed');
  });

  it('passes a cancel on and ignores the late reply', async () => {
    const { channel, page, sent } = setup();
    const abort = new AbortController();
    const done = channel.render(REQUEST, { signal: abort.signal });
    abort.abort();
    await assert.rejects(done, TimelapseCancelled);
    assert.deepEqual(sent.at(-1), { type: 'timelapseCancel', requestId: 1 });
    await page.receive({ type: 'timelapseReply', requestId: 1, ok: true, result: RESULT });
  });

  it("reads the slider's source, says why when the page goes away, and hears the slider's Export button", async () => {
    const { channel, page, exports } = setup();
    const source = channel.source();
    await page.receive({ type: 'timelapseReply', requestId: 1, ok: true, result: { source: { title: 'Lake', dates: ['2026-05-01'] } } });
    assert.deepEqual(await source, { title: 'Lake', dates: ['2026-05-01'] });
    const hidden = channel.render(REQUEST);
    channel.dropAll('hidden');
    await assert.rejects(hidden, /hidden while the timelapse was being drawn/);
    await page.receive({ type: 'exportTimelapse' });
    assert.equal(exports(), 1);
  });

  it("is in the map's tables: its rows are the map's rows", () => {
    for (const t of Object.keys(TIMELAPSE_FROM_PAGE))
      assert.equal((MAP_FROM_PAGE as Record<string, unknown>)[t], TIMELAPSE_FROM_PAGE[t as keyof typeof TIMELAPSE_FROM_PAGE]);
    for (const t of ['timelapseSource', 'timelapse', 'timelapseCancel']) assert.ok(Object.hasOwn(MAP_TO_PAGE, t));
  });
});
