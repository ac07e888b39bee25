/**
 * The extension's side of the clip channel (src/panels/imagery/clipChannel.ts): a GeoTIFF
 * request says the host can read the file; a plan in the answer is executed in the host, a
 * clip's bytes in the answer (a compression only the page decodes) are passed on as they are.
 * What the page sends goes through the map's dispatcher on the channel's rows (clipMessages.ts).
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ClipCancelled, ClipChannel } from '../../../src/panels/imagery/clipChannel';
import type { ReadBytesParams } from '../../../src/panels/imagery/protocol';
import { CLIP_FROM_PAGE, type ClipPlan, type ToMapClipMessage } from '../../../src/panels/imagery/clipMessages';
import { MAP_FROM_PAGE, MAP_TO_PAGE } from '../../../src/panels/mapMessages';
import { Dispatcher } from '../../../src/panels/webview/messages';

/** An uncompressed 4 × 2 uint8 file of one 4 × 2 tile at byte 16: values 1…8. */
const FILE = new Uint8Array([...new Array<number>(16).fill(0), 1, 2, 3, 4, 5, 6, 7, 8]);
const PLAN: ClipPlan = {
  url: 'https://assets.example.com/a.tif',
  fileSize: FILE.length,
  level: 0,
  window: [1, 0, 3, 2],
  tileWidth: 4,
  tileHeight: 2,
  samplesPerPixel: 1,
  planar: 1,
  bitsPerSample: 8,
  sampleFormat: 1,
  compression: 1,
  predictor: 1,
  samples: [0],
  tiles: [{ tx: 0, ty: 0, plane: 0, offset: 16, length: 8 }],
  epsg: 32633,
  originX: 10,
  originY: 20,
  pixelWidth: 10,
  pixelHeight: 10,
  names: ['B1'],
  scale: [1],
  offset: [0],
};

function channel(answer: (m: Extract<ToMapClipMessage, { type: 'clip' }>) => unknown) {
  const sent: ToMapClipMessage[] = [];
  const reads: ReadBytesParams[] = [];
  const c: ClipChannel = new ClipChannel(
    (m) => {
      sent.push(m);
      if (m.type === 'clip') setImmediate(() => c.handlers.clipReply({ type: 'clipReply', requestId: m.requestId, ok: true, result: answer(m) as never }));
    },
    async (p) => {
      reads.push(p);
      return { bytes: FILE.slice(p.offset, p.offset + p.length).buffer, total: FILE.length };
    },
  );
  return { c, sent, reads };
}

describe('clip channel', () => {
  it('runs a plan in the host, reading the file through the panel', async () => {
    const { c, sent, reads } = channel(() => ({ plan: PLAN }));
    const r = await c.clip({ format: 'geotiff', id: 'a', bands: ['B1'], level: 0, mask: false });
    assert.deepEqual(sent[0], { type: 'clip', requestId: 1, request: { format: 'geotiff', id: 'a', bands: ['B1'], level: 0, mask: false, host: true } });
    assert.deepEqual(reads, [{ url: PLAN.url, offset: 16, length: 8 }]);
    assert.deepEqual([r.width, r.height], [2, 2]);
    const bytes = r.bytes as Uint8Array;
    // the window's pixels, the last bytes of the file (band-sequential, uncompressed)
    assert.deepEqual([...bytes.subarray(bytes.length - 4)], [2, 3, 6, 7]);
  });

  it("passes on the page's own clip when it answers bytes", async () => {
    const page = { bytes: new Uint8Array([1, 2, 3]), width: 1, height: 1 };
    const { c, reads } = channel(() => page);
    assert.equal(await c.clip({ format: 'geotiff', id: 'a', bands: ['B1'], level: 0, mask: false }), page);
    assert.deepEqual(reads, []);
  });

  it("hears progress and the reply through the map's dispatcher, and refuses malformed ones first", async () => {
    const sent: ToMapClipMessage[] = [];
    const refused: (string | undefined)[] = [];
    const c = new ClipChannel(
      (m) => sent.push(m),
      () => assert.fail('no plan, no read'),
    );
    const page = new Dispatcher(CLIP_FROM_PAGE, c.handlers, { refused: (t) => refused.push(t), failed: (t, e) => assert.fail(`${t}: ${String(e)}`) });
    const heard: string[] = [];
    const done = c.clip({ format: 'png' }, { onProgress: (n, total) => heard.push(`${n}/${total}`) });
    await page.receive({ type: 'clipProgress', requestId: 1, done: 'half', total: 2 });
    await page.receive({ type: 'clipReply', requestId: 1, ok: 'yes' });
    assert.deepEqual(refused, ['clipProgress', 'clipReply']);
    await page.receive({ type: 'clipProgress', requestId: 1, done: 1, total: 2 });
    const png = { bytes: new Uint8Array([137]), width: 1, height: 1 };
    await page.receive({ type: 'clipReply', requestId: 1, ok: true, result: png });
    assert.deepEqual(await done, png);
    assert.deepEqual(heard, ['1/2']);
    assert.deepEqual(sent, [{ type: 'clip', requestId: 1, request: { format: 'png' } }]);
  });

  it('passes a cancel on, and says why when the page goes away', async () => {
    const sent: ToMapClipMessage[] = [];
    const c = new ClipChannel(
      (m) => sent.push(m),
      () => assert.fail('no read'),
    );
    const abort = new AbortController();
    const cancelled = c.clip({ format: 'png' }, { signal: abort.signal });
    abort.abort();
    await assert.rejects(cancelled, ClipCancelled);
    assert.deepEqual(sent.at(-1), { type: 'clipCancel', requestId: 1 });
    const hidden = c.info();
    c.dropAll('hidden');
    await assert.rejects(hidden, /hidden before the clip was ready/);
    const closed = c.info();
    c.dropAll('closed');
    await assert.rejects(closed, /closed before the clip was ready/);
  });

  it("is in the map's tables: its rows are the map's rows", () => {
    for (const t of Object.keys(CLIP_FROM_PAGE)) assert.equal((MAP_FROM_PAGE as Record<string, unknown>)[t], CLIP_FROM_PAGE[t as keyof typeof CLIP_FROM_PAGE]);
    for (const t of ['clipInfo', 'clip', 'clipCancel']) assert.ok(Object.hasOwn(MAP_TO_PAGE, t));
  });
});
