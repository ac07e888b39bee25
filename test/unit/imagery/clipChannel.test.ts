/**
 * The extension's side of the clip channel (src/panels/imagery/clipChannel.ts): a GeoTIFF
 * request says the host can read the file; a plan in the answer is executed in the host, a
 * clip's bytes in the answer (a compression only the page decodes) are passed on as they are.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ClipChannel } from '../../../src/panels/imagery/clipChannel';
import type { ReadBytesParams } from '../../../src/panels/imagery/protocol';
import type { ClipPlan, ToMapClipMessage } from '../../../src/panels/imagery/clipMessages';

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
      if (m.type === 'clip') setImmediate(() => c.receive({ type: 'clipReply', requestId: m.requestId, ok: true, result: answer(m) as never }));
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
});
