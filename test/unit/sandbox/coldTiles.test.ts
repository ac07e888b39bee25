/**
 * A cold scene's first reads (Try the Sandbox, a map asking for a view): the sandbox makes the
 * tiles a read returns and no others, each once however many reads ask for it at the same
 * time, one after another in the order asked, so the first read is answered after one tile's
 * work. A read that runs into a tile (a 16 KiB header read) computes the rows it sends, not the
 * tile. Whatever the shape of a range, its bytes are the file's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CogSpec, type Samples, type TileRequest, cogLayout, readRange, writeCog } from '../../../src/sandbox/imagery/cogWriter';
import { layoutFor, serveCog } from '../../../src/sandbox/imagery/serve';
import type { Res } from '../../../src/sandbox/router';

const T = 256;
const BANDS = 2;

/** A 1024 × 768 COG whose pixel source counts the rows it fills per tile and tells when a tile starts. */
function countingSpec(onRows?: (tile: string, rows: number) => void): { spec: CogSpec; rows: Map<string, number> } {
  const rows = new Map<string, number>();
  const spec: CogSpec = {
    width: 1024,
    height: 768,
    bands: BANDS,
    dtype: 'uint16',
    tileSize: T,
    originX: 500_000,
    originY: 4_000_000,
    pixelSize: 10,
    epsg: 32611,
    nodata: 0,
    fill: (t: TileRequest, out: Samples) => {
      const tile = `${t.level}:${t.col0 / T}:${Math.floor(t.row0 / T)}`;
      rows.set(tile, (rows.get(tile) ?? 0) + t.rows);
      onRows?.(tile, t.rows);
      for (let r = 0; r < t.rows; r++)
        for (let c = 0; c < t.cols; c++)
          for (let b = 0; b < BANDS; b++) out[(r * T + c) * BANDS + b] = ((t.col0 + c) * 31 + (t.row0 + r) * 7 + b + t.level * 1000) % 65_000;
    },
  };
  return { spec, rows };
}

/** A response's body, read as the server streams it: the event loop runs between chunks. */
async function body(res: Res | Promise<Res>): Promise<Buffer> {
  const r = await res;
  const parts: Buffer[] = [];
  for (const chunk of r.stream?.chunks() ?? []) {
    parts.push(chunk);
    await new Promise((done) => setImmediate(done));
  }
  return Buffer.concat(parts);
}

describe('a cold scene: the tiles a read makes', () => {
  it('any range of the file is the file’s bytes, whichever rows it makes (and whatever was kept before)', () => {
    const { spec } = countingSpec();
    const file = writeCog(spec);
    const layout = cogLayout(spec);
    const kept = new Map<string, Buffer>();
    const store = {
      get: (l: number, x: number, y: number) => kept.get(`${l}:${x}:${y}`),
      put: (l: number, x: number, y: number, b: Buffer) => kept.set(`${l}:${x}:${y}`, b),
    };
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n) as number;
    const slot = layout.slotBytes;
    const l0 = layout.levels[0];
    const ranges: [number, number][] = [
      [0, 16_384],
      [l0.dataStart, l0.dataStart + 4],
      [l0.dataStart + slot - 4, l0.dataStart + slot],
      [l0.dataStart + slot - 6, l0.dataStart + slot + 6],
      [l0.dataStart + 4, l0.dataStart + 4 + layout.tileBytes],
      [layout.size - 8, layout.size],
    ];
    for (let k = 0; k < 60; k++) {
      const a = rand(layout.size);
      ranges.push([a, Math.min(layout.size, a + 1 + rand(k % 3 === 0 ? 3 * slot : 5000))]);
    }
    for (const [a, b] of ranges) {
      assert.ok(readRange(layout, a, b).equals(file.subarray(a, b)), `bytes ${a}-${b}, nothing kept`);
      assert.ok(readRange(layout, a, b, store).equals(file.subarray(a, b)), `bytes ${a}-${b}, tiles kept`);
    }
  });

  it('a 16 KiB header read computes the rows of the first tile it sends, not the tile', () => {
    const { spec, rows } = countingSpec();
    const layout = cogLayout(spec);
    assert.ok(layout.header.length < 16_384, 'the header read runs into the coarsest overview’s tile');
    readRange(layout, 0, 16_384);
    const coarsest = `${layout.levels.length - 1}:0:0`;
    const rowBytes = layout.tileBytes / T;
    const sent = Math.ceil((16_384 - layout.header.length - 4) / rowBytes);
    assert.deepEqual([...rows.keys()], [coarsest], 'only the tile the read runs into');
    assert.ok((rows.get(coarsest) ?? 0) < T / 2, `${rows.get(coarsest)} of its ${T} rows made for the ${sent} rows sent`);
  });

  it('reads asked at once make each tile once, in the order asked: the first is answered before the last tile is started', async () => {
    const events: string[] = [];
    const { spec, rows } = countingSpec((tile) => {
      if (events.at(-1) !== tile) events.push(tile);
    });
    const key = `cold-tiles-test:${Date.now()}`;
    const layout = layoutFor(key, () => spec);
    const l0 = layout.levels[0];
    const tile = (k: number) => {
      const start = l0.dataStart + k * layout.slotBytes + 4;
      return `bytes=${start}-${start + layout.tileBytes - 1}`;
    };
    // the header first, as every reader asks; then six tiles of the view at once, the first twice
    await body(serveCog(key, layout, 'bytes=0-16383'));
    const asked = [0, 1, 2, 4, 5, 6, 0];
    const reads = asked.map((k, i) =>
      body(serveCog(key, layout, tile(k))).then((b) => {
        events.push(`answered ${i}`);
        return b;
      }),
    );
    const bodies = await Promise.all(reads);
    const file = writeCog(countingSpec().spec);
    asked.forEach((k, i) => {
      const start = l0.dataStart + k * layout.slotBytes + 4;
      assert.ok(bodies[i].equals(file.subarray(start, start + layout.tileBytes)), `read ${i} (tile ${k}) has the file's bytes`);
    });
    const made = Object.fromEntries([...rows].filter(([t]) => t.startsWith('0:')));
    assert.deepEqual(made, { '0:0:0': T, '0:1:0': T, '0:2:0': T, '0:0:1': T, '0:1:1': T, '0:2:1': T }, 'each tile of the view made once, whole');
    assert.deepEqual(
      [...rows.keys()].filter((t) => !t.startsWith('0:')),
      [`${layout.levels.length - 1}:0:0`],
      'no other tile than the one the header read ran into',
    );
    const firstAnswered = events.indexOf('answered 0');
    const lastStarted = events.indexOf('0:2:1');
    assert.ok(firstAnswered >= 0 && firstAnswered < lastStarted, `the first read answered before the last tile was started: ${events.join(', ')}`);
  });
});
